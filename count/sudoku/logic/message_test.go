package logic

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestMessages: every step whose technique says its sentence as a
// message carries a key of Messages with a value for each placeholder
// and no other, and its Text is that message in English (so the golden
// explanations, unchanged, check the templates word for word). Every key
// but the parts of "cannot" is met on the samples.
func TestMessages(t *testing.T) {
	d := sharedDir(t, true)
	seen := map[string]bool{}
	n := 40
	if testing.Short() || raceEnabled {
		n = 10
	}
	for _, set := range []string{"17-clue.answers.txt", "magictour-top1465.answers.txt"} {
		for _, a := range sample(t, filepath.Join(d, set), n) {
			for _, sc := range Scales {
				x, err := ExplainWith(context.Background(), a.puzzle, Options{Scale: sc})
				if err != nil {
					t.Fatal(err)
				}
				for _, st := range x.Steps {
					checkMessage(t, st)
					seen[st.Message.Key] = true
				}
			}
		}
	}
	for k := range messages {
		if !seen[k] && !strings.HasPrefix(k, "s.step.cannot") && k != "s.step.guess" && !strings.HasSuffix(k, "-classic") {
			t.Errorf("no step of the samples says %s", k)
		}
	}
}

// checkMessage checks a step's message against its text.
func checkMessage(t *testing.T, st Step) {
	t.Helper()
	m := st.Message
	if m.Key == "" {
		if m.Args != nil {
			t.Errorf("%s: values without a key", st.Technique)
		}
		return
	}
	tmpl, ok := messages[m.Key]
	if !ok {
		t.Fatalf("%s: key %q not in Messages", st.Technique, m.Key)
	}
	var names []string
	for _, a := range m.Args {
		names = append(names, a.Name)
	}
	slices.Sort(names)
	if want := Placeholders(tmpl); !slices.Equal(names, want) {
		t.Errorf("%s: values %v, template %q wants %v", m.Key, names, tmpl, want)
	}
	if got := m.English(); got != st.Text {
		t.Errorf("%s: English %q, Text %q", m.Key, got, st.Text)
	}
}

// TestGuessMessage: the classic scale's guess, which the samples may not
// reach, says its message.
func TestGuessMessage(t *testing.T) {
	st := Step{Technique: "guess"}
	st.say("s.step.guess", cellArg("cell", 4), digitsArg("digits", []int{2, 7}, true), digitArg("digit", 7))
	checkMessage(t, st)
	if want := "guess: no technique finds a step here; r1c5 is 2 or 7, and the solution has 7 there"; st.Text != want {
		t.Errorf("%q, want %q", st.Text, want)
	}
}
