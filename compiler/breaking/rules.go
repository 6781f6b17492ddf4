package breaking

import (
	"fmt"
	"sort"
	"strings"
)

// Categories are buf breaking's rule categories this package implements,
// from the strictest (FILE: source code generated per file keeps
// compiling) to the loosest (WIRE: bytes stay readable). FILE is the
// default, as it is buf's.
var Categories = []string{"FILE", "PACKAGE", "WIRE_JSON", "WIRE"}

// DefaultCategories are the categories used when none are asked for.
var DefaultCategories = []string{"FILE"}

// Rule is one breaking-change rule, as buf v1.75.0 names it.
type Rule struct {
	// ID is buf's rule ID, "FIELD_SAME_TYPE".
	ID string `json:"id"`
	// Categories are the categories that include the rule.
	Categories []string `json:"categories"`
	// Purpose says what the rule checks.
	Purpose string `json:"purpose"`
}

// rule table: ID, categories (F FILE, P PACKAGE, J WIRE_JSON, W WIRE),
// purpose. The order and category sets are buf v1.75.0's v2 configuration.
var ruleTable = []struct{ id, cats, purpose string }{
	{"ENUM_NO_DELETE", "F", "Checks that enums are not deleted from a given file."},
	{"EXTENSION_NO_DELETE", "F", "Checks that extensions are not deleted from a given file."},
	{"FILE_NO_DELETE", "F", "Checks that files are not deleted."},
	{"MESSAGE_NO_DELETE", "F", "Checks that messages are not deleted from a given file."},
	{"SERVICE_NO_DELETE", "F", "Checks that services are not deleted from a given file."},
	{"ENUM_SAME_TYPE", "FP", "Checks that enums have the same type (open vs closed)."},
	{"ENUM_VALUE_NO_DELETE", "FP", "Checks that enum values are not deleted from a given enum."},
	{"EXTENSION_MESSAGE_NO_DELETE", "FP", "Checks that extension ranges are not deleted from a given message."},
	{"FIELD_NO_DELETE", "FP", "Checks that fields are not deleted from a given message."},
	{"FIELD_SAME_CARDINALITY", "FP", "Checks that fields have the same cardinalities in a given message."},
	{"FIELD_SAME_CPP_STRING_TYPE", "FP", "Checks that fields have the same C++ string type, based on ctype field option or (pb.cpp).string_type feature."},
	{"FIELD_SAME_JAVA_UTF8_VALIDATION", "FP", "Checks that fields have the same Java string UTF8 validation, based on java_string_check_utf8 file option or (pb.java).utf8_validation feature."},
	{"FIELD_SAME_JSTYPE", "FP", "Checks that fields have the same value for the jstype option."},
	{"FIELD_SAME_TYPE", "FP", "Checks that fields have the same types in a given message."},
	{"FIELD_SAME_UTF8_VALIDATION", "FP", "Checks that string fields have the same UTF8 validation mode."},
	{"FILE_SAME_CC_ENABLE_ARENAS", "FP", "Checks that files have the same value for the cc_enable_arenas option."},
	{"FILE_SAME_CC_GENERIC_SERVICES", "FP", "Checks that files have the same value for the cc_generic_services option."},
	{"FILE_SAME_CSHARP_NAMESPACE", "FP", "Checks that files have the same value for the csharp_namespace option."},
	{"FILE_SAME_GO_PACKAGE", "FP", "Checks that files have the same value for the go_package option."},
	{"FILE_SAME_JAVA_GENERIC_SERVICES", "FP", "Checks that files have the same value for the java_generic_services option."},
	{"FILE_SAME_JAVA_MULTIPLE_FILES", "FP", "Checks that files have the same value for the java_multiple_files option."},
	{"FILE_SAME_JAVA_OUTER_CLASSNAME", "FP", "Checks that files have the same value for the java_outer_classname option."},
	{"FILE_SAME_JAVA_PACKAGE", "FP", "Checks that files have the same value for the java_package option."},
	{"FILE_SAME_OBJC_CLASS_PREFIX", "FP", "Checks that files have the same value for the objc_class_prefix option."},
	{"FILE_SAME_OPTIMIZE_FOR", "FP", "Checks that files have the same value for the optimize_for option."},
	{"FILE_SAME_PHP_CLASS_PREFIX", "FP", "Checks that files have the same value for the php_class_prefix option."},
	{"FILE_SAME_PHP_METADATA_NAMESPACE", "FP", "Checks that files have the same value for the php_metadata_namespace option."},
	{"FILE_SAME_PHP_NAMESPACE", "FP", "Checks that files have the same value for the php_namespace option."},
	{"FILE_SAME_PY_GENERIC_SERVICES", "FP", "Checks that files have the same value for the py_generic_services option."},
	{"FILE_SAME_RUBY_PACKAGE", "FP", "Checks that files have the same value for the ruby_package option."},
	{"FILE_SAME_SWIFT_PREFIX", "FP", "Checks that files have the same value for the swift_prefix option."},
	{"FILE_SAME_SYNTAX", "FP", "Checks that files have the same syntax."},
	{"MESSAGE_NO_REMOVE_STANDARD_DESCRIPTOR_ACCESSOR", "FP", "Checks that messages do not change the no_standard_descriptor_accessor option from false or unset to true."},
	{"ONEOF_NO_DELETE", "FP", "Checks that oneofs are not deleted from a given message."},
	{"RPC_NO_DELETE", "FP", "Checks that rpcs are not deleted from a given service."},
	{"ENUM_SAME_JSON_FORMAT", "FPJ", "Checks that enums have the same JSON format support."},
	{"ENUM_VALUE_SAME_NAME", "FPJ", "Checks that enum values have the same name."},
	{"FIELD_SAME_JSON_NAME", "FPJ", "Checks that fields have the same value for the json_name option."},
	{"FIELD_SAME_NAME", "FPJ", "Checks that fields have the same names in a given message."},
	{"MESSAGE_SAME_JSON_FORMAT", "FPJ", "Checks that messages have the same JSON format support."},
	{"FIELD_SAME_DEFAULT", "FPJW", "Checks that fields have the same default value, if a default is specified."},
	{"FIELD_SAME_ONEOF", "FPJW", "Checks that fields have the same oneofs in a given message."},
	{"FILE_SAME_PACKAGE", "FPJW", "Checks that files have the same package."},
	{"MESSAGE_SAME_REQUIRED_FIELDS", "FPJW", "Checks that messages have no added or deleted required fields."},
	{"RESERVED_ENUM_NO_DELETE", "FPJW", "Checks that reserved ranges and names are not deleted from a given enum."},
	{"RESERVED_MESSAGE_NO_DELETE", "FPJW", "Checks that reserved ranges and names are not deleted from a given message."},
	{"RPC_SAME_CLIENT_STREAMING", "FPJW", "Checks that rpcs have the same client streaming value."},
	{"RPC_SAME_IDEMPOTENCY_LEVEL", "FPJW", "Checks that rpcs have the same value for the idempotency_level option."},
	{"RPC_SAME_REQUEST_TYPE", "FPJW", "Checks that rpcs are have the same request type."},
	{"RPC_SAME_RESPONSE_TYPE", "FPJW", "Checks that rpcs are have the same response type."},
	{"RPC_SAME_SERVER_STREAMING", "FPJW", "Checks that rpcs have the same server streaming value."},
	{"PACKAGE_ENUM_NO_DELETE", "P", "Checks that enums are not deleted from a given package."},
	{"PACKAGE_EXTENSION_NO_DELETE", "P", "Checks that extensions are not deleted from a given package."},
	{"PACKAGE_MESSAGE_NO_DELETE", "P", "Checks that messages are not deleted from a given package."},
	{"PACKAGE_NO_DELETE", "P", "Checks that packages are not deleted."},
	{"PACKAGE_SERVICE_NO_DELETE", "P", "Checks that services are not deleted from a given package."},
	{"ENUM_VALUE_NO_DELETE_UNLESS_NAME_RESERVED", "J", "Checks that enum values are not deleted from a given enum unless the name is reserved."},
	{"FIELD_NO_DELETE_UNLESS_NAME_RESERVED", "J", "Checks that fields are not deleted from a given message unless the name is reserved."},
	{"FIELD_WIRE_JSON_COMPATIBLE_CARDINALITY", "J", "Checks that fields have wire and JSON compatible cardinalities in a given message."},
	{"FIELD_WIRE_JSON_COMPATIBLE_TYPE", "J", "Checks that fields have wire and JSON compatible types in a given message."},
	{"ENUM_VALUE_NO_DELETE_UNLESS_NUMBER_RESERVED", "JW", "Checks that enum values are not deleted from a given enum unless the number is reserved."},
	{"FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED", "JW", "Checks that fields are not deleted from a given message unless the number is reserved."},
	{"FIELD_WIRE_COMPATIBLE_CARDINALITY", "W", "Checks that fields have wire-compatible cardinalities in a given message."},
	{"FIELD_WIRE_COMPATIBLE_TYPE", "W", "Checks that fields have wire-compatible types in a given message."},
}

// Rules lists every rule of Categories, in buf's order.
var Rules = func() []Rule {
	names := map[byte]string{'F': "FILE", 'P': "PACKAGE", 'J': "WIRE_JSON", 'W': "WIRE"}
	rs := make([]Rule, len(ruleTable))
	for i, r := range ruleTable {
		var cats []string
		for j := range len(r.cats) {
			cats = append(cats, names[r.cats[j]])
		}
		rs[i] = Rule{ID: r.id, Categories: cats, Purpose: r.purpose}
	}
	return rs
}()

// Select returns the set of rule IDs that categories and rules name
// together: every rule of each category, plus each rule named. Both
// empty means DefaultCategories. An unknown category or rule ID is an
// error that lists the known ones.
func Select(categories, rules []string) (map[string]bool, error) {
	if len(categories) == 0 && len(rules) == 0 {
		categories = DefaultCategories
	}
	use := map[string]bool{}
	for _, c := range categories {
		c = strings.ToUpper(strings.TrimSpace(c))
		found := false
		for _, r := range Rules {
			for _, rc := range r.Categories {
				if rc == c {
					use[r.ID] = true
					found = true
				}
			}
		}
		if !found {
			return nil, fmt.Errorf("unknown category %q (known: %s)", c, strings.Join(Categories, ", "))
		}
	}
	for _, id := range rules {
		id = strings.ToUpper(strings.TrimSpace(id))
		if !knownRule(id) {
			ids := make([]string, len(Rules))
			for i, r := range Rules {
				ids[i] = r.ID
			}
			sort.Strings(ids)
			return nil, fmt.Errorf("unknown rule %q (known: %s)", id, strings.Join(ids, ", "))
		}
		use[id] = true
	}
	return use, nil
}

func knownRule(id string) bool {
	for _, r := range Rules {
		if r.ID == id {
			return true
		}
	}
	return false
}
