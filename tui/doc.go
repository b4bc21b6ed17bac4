// Package tui holds the terminal user interface of gh-prloop. It has no code
// of its own; the sub-packages are:
//
//   - sanitize: the one gate every piece of remote text passes before it
//     reaches the screen;
//   - theme: colours, glyphs and the single Styles struct, and the decision
//     whether colour may be used at all;
//   - keys: key bindings shared by every screen;
//   - components/<name>: one self-contained widget per folder, each with its
//     own key map, SetSize and View;
//   - report: the report console (`gh-prloop report`) and its plain-text form;
//   - app: the root model, which only routes;
//   - testutil: helpers shared by the tests of the packages above.
package tui
