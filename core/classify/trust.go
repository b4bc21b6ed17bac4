package classify

import (
	"github.com/prloop/gh-prloop/core/observe"
	"github.com/prloop/gh-prloop/core/policy"
)

// Trusted reports whether an author of a comment or review is the Codex bot:
// its database id AND account type. A login proves nothing (a look-alike
// account can take any display), and the right id reported as a User is not
// how GitHub presents the bot on comments or reviews, so neither counts.
func Trusted(a observe.Actor) bool {
	return a.ID == policy.CodexBotID && a.Type == policy.CodexBotType
}

// trustedReactor is a reaction's view of the bot. REST reports the app's
// reactions with "type": "Bot" and GraphQL's Reactor union as a Bot, but a
// reaction is matched on what cannot be put on: the database id, with the
// login as a second check. Both login spellings GitHub uses for the app are
// accepted (REST "chatgpt-codex-connector[bot]", GraphQL
// "chatgpt-codex-connector", which drops the suffix).
func trustedReactor(a observe.Actor) bool {
	return a.ID == policy.CodexBotID && (a.Login == policy.CodexBotLogin || a.Login == policy.CodexAppSlug)
}
