package bootstrap
func (b *bind) noop(...any) {}
