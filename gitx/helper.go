package gitx

// HelperForScript is the credential.helper value that runs the program at
// the absolute path script with git's "get"/"store"/"erase" argument,
// quoted for the shell git starts helpers with.
func HelperForScript(script string) string { return "!" + shellQuote(script) }
