package wakeup

import (
	"os"
	"strconv"
	"strings"
)

// abandoned reports whether a claim's holder is a process of this machine
// that no longer exists. Such a claim was left by an execution that died
// (SIGKILL, power loss): the wakeup that holds the run lock now releases it
// so that the executor's journal reconciles and finishes the operations.
// Any other claim — another machine's, a live process's, or one whose
// holder cannot be read — stays for core to decide (wait while live, halt
// once stale), so an unknown holder always fails closed.
func abandoned(holder string) bool {
	host, pidText, ok := strings.Cut(holder, ":")
	if !ok {
		return false
	}
	me, err := os.Hostname()
	if err != nil || host != me {
		return false
	}
	pid, err := strconv.Atoi(pidText)
	if err != nil || pid <= 0 || pid == os.Getpid() {
		return false
	}
	return !processAlive(pid)
}
