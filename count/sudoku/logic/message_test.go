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
// but the parts of "cannot" and the rare ones is met on the whole samples
// (the smaller ones of -short and -race meet fewer).
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
					for _, a := range st.Message.Args {
						if a.Kind == "message" {
							seen[a.Message.Key] = true
						}
					}
				}
			}
		}
	}
	if n < 40 {
		return // the whole sample (without -short and -race) meets every key
	}
	for k := range messages {
		if !seen[k] && !strings.HasPrefix(k, "s.step.cannot") && !rareMessages[k] && !strings.HasSuffix(k, "-classic") {
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
	for _, a := range m.Args {
		if a.Kind == "message" {
			checkMessage(t, Step{Technique: st.Technique, Message: *a.Message, Text: a.Message.English()})
		}
	}
	if got := m.English(); got != st.Text {
		t.Errorf("%s: English %q, Text %q", m.Key, got, st.Text)
	}
}

// rareMessages are the messages the samples do not reach:
// TestRareMessages says them.
var rareMessages = map[string]bool{"s.step.guess": true, "s.step.why-bug-3": true, "s.step.why-bug-4": true, "s.step.why-unique-naked": true}

// TestRareMessages: the messages the samples do not reach say what the
// engine's sentences said before they were messages.
func TestRareMessages(t *testing.T) {
	for _, c := range []struct {
		m    Message
		want string
	}{
		{Message{"s.step.guess", []Arg{cellArg("cell", 4), digitsArg("digits", []int{2, 7}, true), digitArg("digit", 7)}},
			"guess: no technique finds a step here; r1c5 is 2 or 7, and the solution has 7 there"},
		{Message{"s.step.why-bug-3", []Arg{digitsArg("digits", []int{3, 8}, false), cellsArg("cells", []int{0, 9}), houseArg("house", 9)}},
			"the extra digits make a naked set on 3 and 8 with r1c1, r2c1 in column 1"},
		{Message{"s.step.why-bug-4", []Arg{cellArg("cell1", 0), cellArg("cell2", 1), digitArg("digit", 5), houseArg("house", 0)}},
			"r1c1 or r1c2 holds its extra digit, and 5 must be in one of them (row 1)"},
		{Message{"s.step.why-unique-naked", []Arg{cellArg("cell1", 0), cellArg("cell2", 1), digitsArg("digits", []int{4, 6, 9}, false), cellsArg("cells", []int{5, 7}), houseArg("house", 18)}},
			"the extra digits of r1c1 and r1c2 make a naked set on 4, 6 and 9 with r1c6, r1c8 in box 1"},
	} {
		if !rareMessages[c.m.Key] {
			t.Errorf("%s is not rare", c.m.Key)
		}
		checkMessage(t, Step{Technique: c.m.Key, Message: c.m, Text: c.want})
	}
	if len(rareMessages) != 4 {
		t.Errorf("%d rare messages, %d said", len(rareMessages), 4)
	}
}
