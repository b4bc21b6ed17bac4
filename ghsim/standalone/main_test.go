package standalone_test

import (
	"fmt"
	"net"
	"os"
	"testing"
	"time"

	"github.com/prloop/gh-prloop/sandbox"
)

// TestMain is the sandbox helper hook plus this binary's own command,
// `<test binary> dial HOST:PORT`, which the sandboxed command below runs.
func TestMain(m *testing.M) {
	sandbox.Main()
	if len(os.Args) == 3 && os.Args[1] == "dial" {
		c, err := net.DialTimeout("tcp", os.Args[2], 5*time.Second)
		if err != nil {
			fmt.Println("dial failed:", err)
			os.Exit(1)
		}
		c.Close()
		fmt.Println("dialed")
		os.Exit(0)
	}
	os.Exit(m.Run())
}
