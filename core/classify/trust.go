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

// trustedReactor is the reactions API's view of the bot: it reports the app
// as type User, so the type cannot be checked there; id and login must both
// match instead. Both login spellings GitHub uses for the app are accepted
// (REST "chatgpt-codex-connector[bot]", GraphQL "chatgpt-codex-connector").
func trustedReactor(a observe.Actor) bool {
	return a.ID == policy.CodexBotID && (a.Login == policy.CodexBotLogin || a.Login == policy.CodexAppSlug)
}
