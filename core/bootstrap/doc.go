// Package bootstrap holds `evaluate --prompt`: the last check before the
// PAUSED automation stub receives its prompt. It revalidates the approved
// initial document, binds the post-write receipt and the fresh bootstrap
// state to it, runs the recurring evaluator (which must find exactly the
// paused-bootstrap inconsistency) and renders the prompt deterministically.
//
// Decisions the seed leaves open, fixed here:
//   - pr_url must be exactly https://github.com/<owner>/<repo>/pull/<n>: no
//     query, fragment, trailing slash or leading zero. GitHub spells owner and
//     repository with the case they were created with, so <owner>/<repo> is
//     compared with the lowercase repository without case; the number must be
//     state.pr.number, and state.pr.url must be the same string byte for byte.
//   - head_descends_from_initial is `git merge-base --is-ancestor initial
//     final`, which is true when the two are equal, so it must be true in
//     both the commit and the no-commit form.
//   - The bootstrap state's execution_boundary is null: the seed lists it
//     among the fields that are null at bootstrap (the boundary is observed
//     afresh by the wakeup that plans a remediation).
//   - "freshly fetched matching base/head branches and tips": state.base_sha
//     equals the approved base_sha; a base that moved during the bootstrap
//     is drift and is refused.
//   - The stub's prompt_sha256 is not checked: the stub is inert, and its
//     prompt is what this result replaces.
//   - On any problem the PromptResult is empty: a rendered prompt is only
//     ever handed out for a document that passed.
package bootstrap
