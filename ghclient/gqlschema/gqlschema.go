// Package gqlschema loads GitHub's published GraphQL schema so that tests (and
// the simulator) can validate every document ghclient sends. The published IDL
// repeats one field pair on EnterpriseOwnerInfo, which a strict loader rejects;
// Load drops exact repeats instead of asking anyone to patch the reference file.
package gqlschema

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
)

// EnvPath names the environment variable that overrides ReferencePath.
const EnvPath = "PRLOOP_GITHUB_SCHEMA"

// ReferencePath is where the project keeps GitHub's public schema.
func ReferencePath() string {
	if p := os.Getenv(EnvPath); p != "" {
		return p
	}
	return filepath.Join(ReferenceDir(), "schema.graphql")
}

// ReferenceDir finds shared/reference/github: the shared/ folder lies beside
// the repository (a developer's checkout and CI's fresh clone alike), so we
// walk up from the working directory to the module root and look beside it.
func ReferenceDir() string {
	const rel = "shared/reference/github"
	if dir, err := os.Getwd(); err == nil {
		for d := dir; ; d = filepath.Dir(d) {
			if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
				cand := filepath.Join(filepath.Dir(d), rel)
				if _, err := os.Stat(cand); err == nil {
					return cand
				}
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	return filepath.Join("/work", rel)
}

// Load parses src, drops exact duplicate field definitions and validates the
// result as a schema. A repeated field whose signature differs is an error:
// that would be a real conflict, not a copy.
func Load(name string, src []byte) (*ast.Schema, []string, error) {
	doc, err := parser.ParseSchemas(validator.Prelude, &ast.Source{Name: name, Input: string(src)})
	if err != nil {
		return nil, nil, err
	}
	dropped, err := DropDuplicateFields(doc)
	if err != nil {
		return nil, nil, err
	}
	schema, err := validator.ValidateSchemaDocument(doc)
	if err != nil {
		return nil, nil, err
	}
	return schema, dropped, nil
}

// DropDuplicateFields removes every field definition that repeats an earlier
// one of the same type with the same arguments and type, keeping the first.
// It returns "Type.field" for each removal.
func DropDuplicateFields(doc *ast.SchemaDocument) ([]string, error) {
	var dropped []string
	for _, list := range []ast.DefinitionList{doc.Definitions, doc.Extensions} {
		for _, def := range list {
			kept := def.Fields[:0]
			seen := map[string]string{}
			for _, f := range def.Fields {
				sig := signature(f)
				if prev, ok := seen[f.Name]; ok {
					if prev != sig {
						return nil, fmt.Errorf("%s.%s is defined twice with different signatures: %q vs %q", def.Name, f.Name, prev, sig)
					}
					dropped = append(dropped, def.Name+"."+f.Name)
					continue
				}
				seen[f.Name] = sig
				kept = append(kept, f)
			}
			def.Fields = kept
		}
	}
	return dropped, nil
}

// signature ignores descriptions: the known defect repeats a field with a
// different description but an identical shape.
func signature(f *ast.FieldDefinition) string {
	var b strings.Builder
	b.WriteString(f.Type.String())
	for _, a := range f.Arguments {
		fmt.Fprintf(&b, " %s:%s", a.Name, a.Type.String())
		if a.DefaultValue != nil {
			b.WriteString("=" + a.DefaultValue.String())
		}
	}
	for _, d := range f.Directives {
		b.WriteString(" @" + d.Name)
		for _, a := range d.Arguments {
			fmt.Fprintf(&b, " %s:%s", a.Name, a.Value.String())
		}
	}
	return b.String()
}

var (
	refOnce   sync.Once
	refSchema *ast.Schema
	refErr    error
)

// Reference loads ReferencePath once per process.
func Reference() (*ast.Schema, error) {
	refOnce.Do(func() {
		src, err := os.ReadFile(ReferencePath())
		if err != nil {
			refErr = err
			return
		}
		refSchema, _, refErr = Load(ReferencePath(), src)
	})
	return refSchema, refErr
}

// Validate parses query and checks it against schema with every standard rule.
func Validate(schema *ast.Schema, query string) error {
	doc, err := parser.ParseQuery(&ast.Source{Name: "query", Input: query})
	if err != nil {
		return err
	}
	if errs := validator.Validate(schema, doc); len(errs) > 0 {
		return errs
	}
	return nil
}
