package sudokupage

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/nqcount/nqcount/count/sudoku"

	"github.com/nqcount/nqcount/count/sudoku/logic"
)

// The hint in a player's words. The engine names its techniques as
// Sudoku Explainer does, with the pattern's code ("2-String Kite 012",
// "VWXYZ-Wing 1412") and writes chains in the forum's notation
// ("r5c4=1 -> r5c4<>7"). The page shows the same step in words: the
// technique's name without its code, "cannot be" for "<>", a chain as a
// sentence, and a glossary entry for the technique. The engine's names,
// scores and texts are unchanged (the API carries both).

// Hint is the answer of hint: the engine's step, and the same in a
// player's words.
type Hint struct {
	logic.Step
	// Name is the technique as players call it: no code, one name for
	// one thing ("Full House" for the hidden single of a house's last
	// cell). Empty for answers that are not steps (a mistake, the end).
	Name string `json:"name"`
	// Glossary is the key of the page's glossary entry for the technique
	// ("" for none).
	Glossary string `json:"glossary"`
	// Words is Text in words: the name without its code, "cannot be"
	// for "<>", chains as sentences.
	Words string `json:"words"`
	// Branches are the branches of a forcing chain, each its links in
	// order from its assumption; Links is the first. Nil for other
	// steps.
	Branches [][]logic.Link `json:"branches"`
	// BranchWords are the branches in words, one sentence each ("if r8c6
	// is 4, then r8c5 cannot be 4, so ..."); nil with Branches.
	BranchWords []string `json:"branch_words"`
	// Message is the step's sentence as a message of the page's
	// catalogues (logic.Message), for the page to say it in the
	// player's language; its technique is named as Name names it (the
	// catalogue's key for it is TechniqueKey's). Nil where the engine
	// has no message for the step: Words is then the sentence.
	Message *logic.Message `json:"message,omitempty"`
}

// HintOf returns st in a player's words. For a forcing chain with
// several branches it adds every branch's candidates to the step's marks
// and cells, so that the page colours what each branch goes through.
func HintOf(st logic.Step) Hint {
	h := Hint{Step: st}
	if !isStep(st.Technique) {
		h.Words = st.Text
		if st.Message.Key != "" {
			m := st.Message
			h.Message = &m
		}
		return h
	}
	h.Name = TechniqueName(st.Technique, st.Score)
	h.Glossary = glossaryKey(st.Technique, st.Score)
	h.Words = inWords(st.Technique, h.Name, st.Text)
	if st.Message.Key != "" {
		m := logic.Message{Key: st.Message.Key, Args: slices.Clone(st.Message.Args)}
		for i, a := range m.Args {
			if a.Kind == "technique" {
				m.Args[i].Text = TechniqueName(a.Technique, st.Score)
			}
		}
		h.Message = &m
	}
	nodes := chains(st.Text)
	for _, ns := range nodes {
		h.Branches = append(h.Branches, linksOf(ns))
		words := make([]string, len(ns))
		for k, n := range ns {
			words[k] = nodeWords(n)
		}
		h.BranchWords = append(h.BranchWords, "if "+words[0]+", then "+strings.Join(words[1:], ", so "))
	}
	if len(nodes) > 1 {
		h.Step = widen(st, nodes)
	}
	return h
}

// isStep reports whether technique names a solving step, not one of the
// answers of package web (a clash, a mistake, the end).
func isStep(technique string) bool {
	switch technique {
	case "mistake", "clash", "solved", "none":
		return false
	}
	return true
}

var (
	codeRE     = regexp.MustCompile(`\s\d{3,}$`)
	loopRE     = regexp.MustCompile(`^\((\d+) Strong Links\) (.*)$`)
	strongRE   = regexp.MustCompile(`(\d+) Strong links`)
	potRE      = regexp.MustCompile(`r([1-9])c([1-9])(=|<>)([1-9])`)
	chainRE    = regexp.MustCompile(`r[1-9]c[1-9](?:=|<>)[1-9](?: -> r[1-9]c[1-9](?:=|<>)[1-9])*`)
	linksRE    = regexp.MustCompile(`^(.*? on ([1-9]): )(.*?)(; .*)$`)
	strongLink = regexp.MustCompile(`^(.+?) = (.+?) \(((?:row|column|box) [1-9])\)$`)
)

// classicNames are the player's names of the classic scale's techniques,
// which the engine writes in lower case.
var classicNames = map[string]string{
	"x-wing": "X-Wing", "xy-wing": "XY-Wing", "xyz-wing": "XYZ-Wing", "x-chain": "X-Chain",
	"xy-chain": "XY-Chain", "aic": "Alternating Inference Chain", "w-wing": "W-Wing",
}

// TechniqueName returns a technique's name as players say it: without
// Sudoku Explainer's pattern code ("2-String Kite 012" is a "2-String
// Kite"), "Full House" for a hidden single of score 1.0 (the last empty
// cell of a house), capitalized words for the classic scale's names.
func TechniqueName(technique string, score float64) string {
	n := codeRE.ReplaceAllString(technique, "")
	if m := loopRE.FindStringSubmatch(n); m != nil {
		n = m[2] + " of " + m[1] + " Strong Links"
	}
	n = strongRE.ReplaceAllString(n, "$1 Strong Links")
	if n == "Hidden Single" && score <= 1.0 {
		return "Full House"
	}
	if c, ok := classicNames[n]; ok {
		return c
	}
	if n != "" && n == strings.ToLower(n) {
		words := strings.Fields(n)
		for i, w := range words {
			words[i] = strings.ToUpper(w[:1]) + w[1:]
		}
		n = strings.Join(words, " ")
	}
	return n
}

// TechniqueKey returns the key of the page's catalogues that names a
// technique in a message, from its name as TechniqueName gives it:
// "s.tn.naked-pair" for "Naked Pair".
func TechniqueKey(name string) string {
	return "s.tn." + strings.ReplaceAll(strings.ToLower(name), " ", "-")
}

// glossaryKeys are the page's glossary entries, in its order.
var glossaryKeys = []string{
	"full-house", "hidden-single", "naked-single", "direct", "pointing", "claiming",
	"naked-subset", "hidden-subset", "fish", "skyscraper", "kite", "turbot-fish",
	"strong-links", "x-loop", "coloring", "xy-wing", "xyz-wing", "big-wing",
	"unique-rectangle", "bug", "aligned-exclusion", "forcing-chain", "cycle",
	"cell-forcing", "region-forcing", "contradiction", "double-forcing", "dynamic", "nested", "guess",
}

// GlossaryKeys returns the keys of the page's glossary entries, in the
// glossary's order; every hint's Glossary is one of them.
func GlossaryKeys() []string { return append([]string(nil), glossaryKeys...) }

// glossaryKey returns the glossary entry that explains a technique.
func glossaryKey(technique string, score float64) string {
	t := strings.ToLower(technique)
	has := func(s ...string) bool {
		for _, x := range s {
			if strings.Contains(t, x) {
				return true
			}
		}
		return false
	}
	switch {
	case t == "full house" || (t == "hidden single" && score <= 1.0):
		return "full-house"
	case t == "hidden single":
		return "hidden-single"
	case t == "naked single":
		return "naked-single"
	case strings.HasPrefix(t, "direct "):
		return "direct"
	case has("nested"):
		return "nested"
	case has("dynamic"):
		return "dynamic"
	case has("nishio", "contradiction"):
		return "contradiction"
	case has("double forcing"):
		return "double-forcing"
	case has("cell forcing"):
		return "cell-forcing"
	case has("region forcing"):
		return "region-forcing"
	case has("cycle"):
		return "cycle"
	case has("forcing", "x-chain", "xy-chain", "aic"):
		return "forcing-chain"
	case has("x-loop"):
		return "x-loop"
	case has("turbot"):
		return "turbot-fish"
	case has("skyscraper"):
		return "skyscraper"
	case has("kite"):
		return "kite"
	case has("strong links"):
		return "strong-links"
	case has("coloring"):
		return "coloring"
	case has("pointing"):
		return "pointing"
	case has("claiming"):
		return "claiming"
	case has("naked pair", "naked triplet", "naked triple", "naked quad"):
		return "naked-subset"
	case has("hidden pair", "hidden triplet", "hidden triple", "hidden quad"):
		return "hidden-subset"
	case has("x-wing", "swordfish", "jellyfish"):
		return "fish"
	case t == "xy-wing":
		return "xy-wing"
	case t == "xyz-wing":
		return "xyz-wing"
	case has("-wing"):
		return "big-wing"
	case has("unique"):
		return "unique-rectangle"
	case has("bug", "bivalue"):
		return "bug"
	case has("aligned"):
		return "aligned-exclusion"
	case t == "guess":
		return "guess"
	}
	return ""
}

// potWords writes a chain's node in words: "r5c4 is 1", "r5c4 cannot be 7".
func potWords(p string) string {
	m := potRE.FindStringSubmatch(p)
	if m[3] == "=" {
		return "r" + m[1] + "c" + m[2] + " is " + m[4]
	}
	return "r" + m[1] + "c" + m[2] + " cannot be " + m[4]
}

// inWords rewrites a step's text: the technique's name as the player's
// name, chains as sentences, and the strong links of a fish-like chain
// as the places a digit can go.
func inWords(technique, name, text string) string {
	if technique != "" && strings.HasPrefix(strings.ToLower(text), strings.ToLower(technique)) {
		text = name + text[len(technique):]
	}
	if m := linksRE.FindStringSubmatch(text); m != nil && strings.Contains(m[3], " = ") {
		if w, ok := strongLinksWords(m[2], m[3]); ok {
			text = m[1] + w + m[4]
		}
	}
	var b strings.Builder
	last := 0
	for _, loc := range chainRE.FindAllStringIndex(text, -1) {
		before, c := text[last:loc[0]], text[loc[0]:loc[1]]
		b.WriteString(before)
		last = loc[1]
		nodes := strings.Split(c, " -> ")
		switch {
		case len(nodes) == 1 && (strings.HasSuffix(before, "if ") || strings.HasSuffix(before, "whether ")):
			b.WriteString(potWords(c))
		case len(nodes) == 1:
			b.WriteString("“" + potWords(c) + "”")
		default:
			words := make([]string, len(nodes))
			for k, n := range nodes {
				words[k] = potWords(n)
			}
			if strings.HasSuffix(before, "both ") || strings.HasSuffix(before, " and ") {
				b.WriteString(strings.Join(words, ", so "))
			} else {
				b.WriteString("if " + words[0] + ", then " + strings.Join(words[1:], ", so "))
			}
			// "... -> r2c3<>4, so r2c3 cannot be 4": the conclusion once.
			if dup := ", so " + words[len(words)-1]; strings.HasPrefix(text[last:], dup) {
				last += len(dup)
			}
		}
	}
	b.WriteString(text[last:])
	return b.String()
}

// strongLinksWords writes "r7c9 = r7c2 (row 7) - r9c1 = r3c1 (column 1)"
// as the places the digit can go: "1 is in r7c9 or r7c2 (row 7); r7c2
// sees r9c1, and 1 is in r9c1 or r3c1 (column 1)".
func strongLinksWords(digit, chain string) (string, bool) {
	segs := strings.Split(chain, " - ")
	var b strings.Builder
	prev := ""
	for i, s := range segs {
		m := strongLink.FindStringSubmatch(s)
		if m == nil {
			return "", false
		}
		if i > 0 {
			b.WriteString("; " + prev + " sees " + m[1] + ", and ")
		}
		b.WriteString(digit + " is in " + m[1] + " or " + m[2] + " (the only places in " + m[3] + ")")
		prev = m[2]
	}
	return b.String(), true
}

// chainNode is a node of a chain: a candidate, on (=) or off (<>).
type chainNode struct {
	mv logic.Move
	on bool
}

// chains reads the branches of a chain step from its text: each chain of
// two or more nodes joined by " -> " is a branch.
func chains(text string) [][]chainNode {
	var out [][]chainNode
	for _, c := range chainRE.FindAllString(text, -1) {
		parts := strings.Split(c, " -> ")
		if len(parts) < 2 {
			continue
		}
		ns := make([]chainNode, len(parts))
		for k, p := range parts {
			m := potRE.FindStringSubmatch(p)
			r, col, d := int(m[1][0]-'1'), int(m[2][0]-'1'), int(m[4][0]-'0')
			ns[k] = chainNode{logic.Move{Cell: r*9 + col, Digit: d}, m[3] == "="}
		}
		out = append(out, ns)
	}
	return out
}

// nodeWords writes a chain's node in words, as potWords does.
func nodeWords(n chainNode) string {
	name := sudoku.CellName(n.mv.Cell)
	if n.on {
		return name + " is " + strconv.Itoa(n.mv.Digit)
	}
	return name + " cannot be " + strconv.Itoa(n.mv.Digit)
}

// linksOf links a branch's consecutive nodes: strongly from a candidate
// off to one on ("r1c2<>4 -> r3c2=4": at least one of the two is true),
// weakly otherwise, as the engine's Links do.
func linksOf(ns []chainNode) []logic.Link {
	links := make([]logic.Link, 0, len(ns)-1)
	for k := 1; k < len(ns); k++ {
		links = append(links, logic.Link{From: ns[k-1].mv, To: ns[k].mv, Strong: !ns[k-1].on && ns[k].on})
	}
	return links
}

// widen adds the candidates and cells of every branch to the step's
// pattern (the engine's marks are the first branch's): on candidates in
// colour 0, off ones in colour 1, each candidate once.
func widen(st logic.Step, bs [][]chainNode) logic.Step {
	seen := map[[2]int]bool{}
	for _, m := range st.Marks {
		seen[[2]int{m.Cell, m.Digit}] = true
	}
	cells := map[int]bool{}
	for _, c := range st.Cells {
		cells[c] = true
	}
	marks := append([]logic.Mark(nil), st.Marks...)
	for _, b := range bs {
		for _, n := range b {
			cells[n.mv.Cell] = true
			k := [2]int{n.mv.Cell, n.mv.Digit}
			if seen[k] {
				continue
			}
			seen[k] = true
			col := 1
			if n.on {
				col = 0
			}
			marks = append(marks, logic.Mark{Cell: n.mv.Cell, Digit: n.mv.Digit, Color: col})
		}
	}
	st.Marks = marks
	st.Cells = nil
	for c := 0; c < 81; c++ {
		if cells[c] {
			st.Cells = append(st.Cells, c)
		}
	}
	return st
}
