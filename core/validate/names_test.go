package validate_test

import (
	"testing"

	"github.com/prloop/gh-prloop/core/validate"
)

func TestRefNameProblem(t *testing.T) {
	for _, good := range []string{"main", "prloop/fix-readme-typo", "release-1.2", "feature/ü", "a.b/c", "origin", "x@y"} {
		if why := validate.RefNameProblem(good); why != "" {
			t.Errorf("RefNameProblem(%q) = %q, want accepted", good, why)
		}
	}
	for rule, bad := range map[string]string{
		"NotEmpty":              "",
		"NotAt":                 "@",
		"NoLeadingDash":         "-main",
		"NoLeadingSlash":        "/main",
		"NoTrailingSlash":       "main/",
		"NoTrailingDot":         "main.",
		"NoDotDot":              "a..b",
		"NoDoubleSlash":         "a//b",
		"NoAtBrace":             "a@{1}",
		"NoSpace":               "a b",
		"NoTilde":               "a~1",
		"NoCaret":               "a^",
		"NoColon":               "a:b",
		"NoQuestion":            "a?",
		"NoStar":                "a*",
		"NoBracket":             "a[b",
		"NoBackslash":           `a\b`,
		"NoControl":             "a\tb",
		"NoDEL":                 "a\x7fb",
		"NoComponentLeadingDot": "a/.hidden",
		"NoComponentLock":       "a/b.lock",
		"NoLock":                "main.lock",
	} {
		if validate.RefNameProblem(bad) == "" {
			t.Errorf("%s: RefNameProblem(%q) accepted", rule, bad)
		}
	}
}

func TestRepositoryProblem(t *testing.T) {
	for _, good := range []string{"octo-org/hello-world", "a/b", "user1/repo.name_x-y", "o/.github"} {
		if why := validate.RepositoryProblem(good); why != "" {
			t.Errorf("RepositoryProblem(%q) = %q, want accepted", good, why)
		}
	}
	for rule, bad := range map[string]string{
		"OwnerSlashRepo":      "hello-world",
		"OneSlash":            "a/b/c",
		"Lowercase":           "Octo/hello",
		"LowercaseRepo":       "octo/Hello",
		"OwnerNotEmpty":       "/repo",
		"RepoNotEmpty":        "owner/",
		"OwnerNoLeadingDash":  "-owner/repo",
		"OwnerCharset":        "own_er/repo",
		"OwnerLength":         "a234567890123456789012345678901234567890/repo",
		"RepoCharset":         "owner/re po",
		"RepoNotDot":          "owner/.",
		"RepoNotDotDot":       "owner/..",
		"RepoNoNonASCII":      "owner/rëpo",
		"RepoLength":          "owner/" + "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		"NoTrailingSlashRepo": "owner/repo/",
	} {
		if validate.RepositoryProblem(bad) == "" {
			t.Errorf("%s: RepositoryProblem(%q) accepted", rule, bad)
		}
	}
}
