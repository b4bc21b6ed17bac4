package statestore

// hookFS is the file system of Shared.SetWriteHook: the real one, with a
// hook consulted before each step of an atomic write.
type hookFS struct {
	fileSystem
	hook func(step string) error
}

type hookFile struct {
	tempFile
	hook func(step string) error
}

func (h hookFS) CreateTemp(dir, pattern string) (tempFile, error) {
	if err := h.hook("create"); err != nil {
		return nil, err
	}
	f, err := h.fileSystem.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	return hookFile{f, h.hook}, nil
}

func (h hookFS) Rename(oldpath, newpath string) error {
	if err := h.hook("rename"); err != nil {
		return err
	}
	return h.fileSystem.Rename(oldpath, newpath)
}

func (h hookFS) Remove(name string) error {
	if err := h.hook("remove"); err != nil {
		return err
	}
	return h.fileSystem.Remove(name)
}

func (h hookFS) SyncDir(dir string) error {
	if err := h.hook("syncdir"); err != nil {
		return err
	}
	return h.fileSystem.SyncDir(dir)
}

func (f hookFile) Write(p []byte) (int, error) {
	if err := f.hook("write"); err != nil {
		return 0, err
	}
	return f.tempFile.Write(p)
}

func (f hookFile) Sync() error {
	if err := f.hook("sync"); err != nil {
		return err
	}
	return f.tempFile.Sync()
}

// Close always closes the real file, so a failing hook leaks no descriptor.
func (f hookFile) Close() error {
	err := f.tempFile.Close()
	if herr := f.hook("close"); herr != nil {
		return herr
	}
	return err
}
