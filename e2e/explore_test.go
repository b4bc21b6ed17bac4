package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/ghclient"
	"github.com/prloop/gh-prloop/ghsim"
	"github.com/prloop/gh-prloop/inspect"
)

func TestExplore(t *testing.T) {
	clock := ghsim.NewManualClock(time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC))
	sim := ghsim.New(ghsim.Options{Clock: clock.Now})
	defer sim.Close()
	ghsim.SeedDemo(sim)
	c, err := ghclient.New(ghclient.Options{Host: "github.com", Token: "demo", BaseTransport: sim.Transport(), Now: clock.Now})
	if err != nil { t.Fatal(err) }
	obs, cost, err := c.ObservePR(context.Background(), ghclient.Repo{Owner: "octo-org", Name: "widgets"}, 42)
	fmt.Println(cost, err)
	b, _ := json.MarshalIndent(obs, "", " ")
	fmt.Println(string(b))
	r, err := inspect.Observe(context.Background(), c, ghclient.Repo{Owner: "octo-org", Name: "widgets"}, 42)
	if err != nil { t.Fatal(err) }
	b, _ = json.MarshalIndent(r.JSON(), "", " ")
	fmt.Println(string(b))
	fmt.Printf("%+v\n", sim.Stats())
}
