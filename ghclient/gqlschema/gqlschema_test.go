package gqlschema

import (
	"os"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

func TestReferenceSchemaLoadsWithKnownDuplicateDropped(t *testing.T) {
	src, err := os.ReadFile(ReferencePath())
	if err != nil {
		t.Fatal(err)
	}
	schema, dropped, err := Load("schema.graphql", src)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"EnterpriseOwnerInfo.repositoryDeployKeySetting", "EnterpriseOwnerInfo.repositoryDeployKeySettingOrganizations"}
	if strings.Join(dropped, ",") != strings.Join(want, ",") {
		t.Fatalf("dropped %v, want %v", dropped, want)
	}
	if schema.Query == nil || schema.Mutation == nil || schema.Types["PullRequestReviewThread"] == nil {
		t.Fatal("schema lacks Query, Mutation or PullRequestReviewThread")
	}
}

func TestDuplicateWithDifferentSignatureIsRefused(t *testing.T) {
	doc, err := parser.ParseSchema(&ast.Source{Input: "type T { a: Int\n a: String }"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DropDuplicateFields(doc); err == nil {
		t.Fatal("conflicting duplicate accepted")
	}
}

func TestValidateRejectsUnknownField(t *testing.T) {
	schema, err := Reference()
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(schema, `query { viewer { login } }`); err != nil {
		t.Fatalf("valid query rejected: %v", err)
	}
	err = Validate(schema, `query { viewer { notAField } }`)
	if err == nil || !strings.Contains(err.Error(), "notAField") {
		t.Fatalf("invalid query accepted or wrong error: %v", err)
	}
}
