package step

import "context"

// Once is a GitHub write that must happen at most once (a pull request, a
// request comment): what an earlier attempt left is found by observation
// and is the receipt; otherwise it is written between the fault points
// before:Op and after:Op; and a write whose delivery is unknown is looked
// for again, never sent again.
type Once[T any] struct {
	Op    string
	Find  func(ctx context.Context) (*T, error) // nil, nil when nothing is there
	Write func(ctx context.Context) (*T, error)
	Fault func(point string) error
	// Unseen is the error for a write of unknown delivery that is not
	// visible yet: nothing was sent again, and the next run reconciles.
	Unseen func(err error) error
}

// Do returns what is there and whether it was there before this call (a
// reconciliation rather than a write).
func (o Once[T]) Do(ctx context.Context) (*T, bool, error) {
	if v, err := o.Find(ctx); err != nil || v != nil {
		return v, err == nil, err
	}
	if err := o.Fault("before:" + o.Op); err != nil {
		return nil, false, err
	}
	v, err := o.Write(ctx)
	if err != nil {
		if !DeliveryUnknown(err) {
			return nil, false, err
		}
		found, ferr := o.Find(ctx)
		if ferr != nil {
			return nil, false, ferr
		}
		if found == nil {
			return nil, false, o.Unseen(err)
		}
		v = found
	}
	if err := o.Fault("after:" + o.Op); err != nil {
		return nil, false, err
	}
	return v, false, nil
}
