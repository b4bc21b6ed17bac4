package banner

import "time"

// spinnerFPS is slow on purpose: the spinner says "alive", not "busy", and
// every frame is a redraw.
const spinnerFPS = time.Second / 5
