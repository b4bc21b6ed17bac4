package ghsim

// AddAccount registers an account (ID 0 allocates one; Type "" means User)
// and returns the stored copy. Registering an existing ID updates it.
func (s *Server) AddAccount(a Account) Account {
	s.mu.Lock()
	defer s.mu.Unlock()
	return *s.addAccountLocked(a)
}

// AddLookalike registers an account that copies the Codex bot's login but
// has another database id (and the given type: TypeBot or TypeUser), the
// impostor a trust check must reject.
func (s *Server) AddLookalike(id int64, typ string) Account {
	return s.AddAccount(Account{Login: CodexBotLogin, ID: id, Type: typ})
}

// Account returns a registered account by database id.
func (s *Server) Account(id int64) (Account, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.accounts[id]
	if !ok {
		return Account{}, false
	}
	return *a, true
}

func (s *Server) addAccountLocked(a Account) *Account {
	if a.Type == "" {
		a.Type = TypeUser
	}
	a.ID = s.ids.claim("account", a.ID)
	if old, ok := s.accounts[a.ID]; ok {
		if a.NodeID == "" {
			a.NodeID = old.NodeID
		}
		*old = a
		s.nodes[old.NodeID] = nodeRef{kind: a.Type, v: old}
		return old
	}
	if a.NodeID == "" {
		prefix := prefixUser
		switch a.Type {
		case TypeBot:
			prefix = prefixBot
		case TypeOrganization:
			prefix = prefixOrg
		}
		a.NodeID = s.ids.node(prefix)
	}
	p := &a
	s.accounts[a.ID] = p
	s.accountOrder = append(s.accountOrder, a.ID)
	s.nodes[a.NodeID] = nodeRef{kind: a.Type, v: p}
	return p
}

// accountLocked returns the stored account for a (registering it when new),
// so that seeded authors always resolve to one identity.
func (s *Server) accountLocked(a Account) *Account {
	if a.ID != 0 {
		// The database id is the identity; a stale login in a seed spec
		// must not rename the stored account.
		if p, ok := s.accounts[a.ID]; ok {
			return p
		}
	}
	if a.ID == 0 && a.Login != "" {
		// First registered wins, so a look-alike never captures the
		// real account's login lookups.
		for _, id := range s.accountOrder {
			p := s.accounts[id]
			if p.Login == a.Login && (a.Type == "" || a.Type == p.Type) {
				return p
			}
		}
	}
	return s.addAccountLocked(a)
}
