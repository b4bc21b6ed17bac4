package step

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/prloop/gh-prloop/ghclient"
)

// Once writes at most once: what is there is the receipt; a write of
// unknown delivery is looked for, never sent again; every other failure
// is returned as it is.
func TestOnceWritesAtMostOnce(t *testing.T) {
	unknown := &ghclient.DeliveryUnknownError{Method: "POST", URL: "https://api.github.com/x", Err: errors.New("reset")}
	refused := errors.New("422")
	unseen := errors.New("not visible yet")
	one := 1
	cases := []struct {
		name      string
		finds     []*int // what each Find call sees
		writeErr  error
		wantVal   *int
		wantFound bool
		wantErr   error
		wantCalls []string
	}{
		{"already-there", []*int{&one}, nil, &one, true, nil, []string{"find"}},
		{"written", []*int{nil}, nil, &one, false, nil, []string{"find", "before:op", "write", "after:op"}},
		{"unknown-then-found", []*int{nil, &one}, unknown, &one, false, nil, []string{"find", "before:op", "write", "find", "after:op"}},
		{"unknown-not-visible", []*int{nil, nil}, unknown, nil, false, unseen, []string{"find", "before:op", "write", "find"}},
		{"refused", []*int{nil}, refused, nil, false, refused, []string{"find", "before:op", "write"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var calls []string
			finds := c.finds
			o := Once[int]{
				Op: "op",
				Find: func(context.Context) (*int, error) {
					calls = append(calls, "find")
					v := finds[0]
					finds = finds[1:]
					return v, nil
				},
				Write: func(context.Context) (*int, error) {
					calls = append(calls, "write")
					if c.writeErr != nil {
						return nil, c.writeErr
					}
					return &one, nil
				},
				Fault: func(p string) error { calls = append(calls, p); return nil },
				Unseen: func(err error) error {
					if !errors.Is(err, unknown) {
						t.Errorf("Unseen got %v, want the delivery-unknown error", err)
					}
					return unseen
				},
			}
			v, found, err := o.Do(context.Background())
			if v != c.wantVal || found != c.wantFound || !errors.Is(err, c.wantErr) {
				t.Errorf("Do = %v, %v, %v; want %v, %v, %v", v, found, err, c.wantVal, c.wantFound, c.wantErr)
			}
			if !reflect.DeepEqual(calls, c.wantCalls) {
				t.Errorf("calls %v, want %v", calls, c.wantCalls)
			}
		})
	}
}
