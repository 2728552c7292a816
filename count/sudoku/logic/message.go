package logic

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/nqcount/nqcount/count/sudoku"
)

// Message is a step's sentence as the key of a message catalogue and the
// typed values it puts in (cells, digits, houses, the technique, the
// candidates removed), so that a page can say the step in its reader's
// language. A step's Text is its Message in English, written from the
// templates Messages returns. The steps of the techniques whose
// sentences are not messages yet (chains, coloring, uniqueness, aligned
// exclusion, almost locked sets) have a Message with no Key: their Text
// is the only sentence.
type Message struct {
	// Key names the sentence: one of the keys of Messages.
	Key string `json:"key"`
	// Args are the values of the template's placeholders, one per
	// placeholder, in the template's order.
	Args []Arg `json:"args"`
}

// Arg is a value of a Message: Name is its placeholder ({Name} in the
// template) and Kind says which of the other fields hold it.
type Arg struct {
	// Name is the placeholder's name.
	Name string `json:"name"`
	// Kind is "cell" (Cells[0]), "cells" (Cells, a list joined with
	// commas, the last with "or" with Or, "and" with And), "digit"
	// (Digits[0]), "digits" (Digits, a list, the last joined with "and",
	// or "or" with Or), "house" (Houses[0]), "houses" (Houses,
	// all rows or all columns: "columns 2 and 7"), "technique"
	// (Technique: the step's technique; Text: its name as the sentence
	// writes it), "cannot" (Moves: candidates removed, said as "r1c7,
	// r1c9 cannot be 3" or cell by cell), "placed" (Cells[0] holds
	// Digits[0]: "r1c7 is 3"), "node" (a chain's candidate, Chains[0]'s
	// first node: "r1c7=3", "r1c7<>3"), "chain" (Chains[0]: "r1c7=3 ->
	// r1c9<>3 -> ..."), "chains" (Chains, joined with "; ") or "message"
	// (Message: a clause of the sentence), "candidates" (Moves: "2 in
	// r1c7, 5 in r3c3"), "moves" (Moves: "r1c7=2, r3c3=5"), "cellcands"
	// (Moves, a cell's together: "r1c7 (2 or 5), r3c3 (5 or 8)") or
	// "links" (Links: strong links
	// of one digit joined by cells that see each other, "r7c9 = r7c2 (row
	// 7) - r9c1 = r3c1 (column 1)").
	Kind string `json:"kind"`
	// Cells are the cells of a "cell" or "cells" value, 0-80.
	Cells []int `json:"cells,omitempty"`
	// Digits are the digits of a "digit" or "digits" value.
	Digits []int `json:"digits,omitempty"`
	// Or joins a list's last item with "or"; And joins a list of cells'
	// last with "and" (else cells are joined with commas alone).
	Or  bool `json:"or,omitempty"`
	And bool `json:"and,omitempty"`
	// Houses are the houses of a "house" or "houses" value.
	Houses []House `json:"houses,omitempty"`
	// Moves are the candidates of a "cannot", "candidates", "moves" or
	// "cellcands" value.
	Moves []Move `json:"moves,omitempty"`
	// Message is the sentence of a "message" value: a clause said as a
	// message of its own.
	Message *Message `json:"message,omitempty"`
	// Links are the strong links of a "links" value.
	Links []StrongLink `json:"links,omitempty"`
	// Chains are the chains of a "node", "chain" or "chains" value.
	Chains []Chain `json:"chains,omitempty"`
	// Technique is the technique of a "technique" value, as Step's.
	Technique string `json:"technique,omitempty"`
	// Text is the technique's name as the English sentence writes it.
	Text string `json:"text,omitempty"`
}

// Chain is a chain of a message: candidates from its assumption, each
// following from the one before.
type Chain struct {
	// Nodes are the chain's candidates, in order.
	Nodes []ChainNode `json:"nodes"`
	// Nested is how many of the chain's removals nested techniques
	// prove (0: none).
	Nested int `json:"nested,omitempty"`
}

// StrongLink is a house where a digit has two places (a place can be
// two or three cells of a box in one line): one of them holds it.
type StrongLink struct {
	// From and To are the two places, each one cell or a group.
	From []int `json:"from"`
	To   []int `json:"to"`
	// House is the house.
	House House `json:"house"`
}

// ChainNode is a candidate of a chain: the digit in the cell (On), or
// not.
type ChainNode struct {
	Cell  int  `json:"cell"`
	Digit int  `json:"digit"`
	On    bool `json:"on"`
}

// String writes the node as the engine's sentences do: rRcC=D or
// rRcC<>D.
func (n ChainNode) String() string {
	op := "<>"
	if n.On {
		op = "="
	}
	return sudoku.CellName(n.Cell) + op + strconv.Itoa(n.Digit)
}

// String writes the chain as the engine's sentences do: its nodes joined
// with " -> ", and a note of the nested techniques' removals.
func (c Chain) String() string {
	parts := make([]string, len(c.Nodes))
	for i, n := range c.Nodes {
		parts[i] = n.String()
	}
	s := strings.Join(parts, " -> ")
	if c.Nested > 0 {
		s += fmt.Sprintf(" (%d of these removals by nested techniques)", c.Nested)
	}
	return s
}

// messages are the English templates of the messages, with {name} for
// each value put in.
var messages = map[string]string{
	"s.step.full-house":          "{cell} can only be {digit}: full house, the last empty cell of {house}",
	"s.step.hidden-single":       "{cell} can only be {digit}: hidden single in {house}, the only place for {digit} there",
	"s.step.naked-single":        "{cell} can only be {digit}: naked single, {digit} is the cell's last candidate",
	"s.step.direct-hidden":       "{cell} can only be {digit}: {technique}, in {house} {digits} can only go in {cells}, which leaves {cell} the only place for {digit}",
	"s.step.direct-locked":       "{cell} can only be {digit}: {technique}, in {house} {digit} can only go in {house2} ({cells}), which leaves {cell} the only place for {digit} in {house3}",
	"s.step.locked":              "{technique}: in {house}, {digit} can only go in {house2} ({cells}), so {cannot}",
	"s.step.naked-subset":        "{technique}: in {house}, {cells} hold only {digits} between them, so {cannot}",
	"s.step.hidden-subset":       "{technique}: in {house}, {digits} can only go in {cells}, so {cannot}",
	"s.step.fish":                "{technique} on {digit}: in {base}, {digit} can only go in {cover}, so {cannot}",
	"s.step.wing":                "{technique}: {pivot} ({pivotdigits}) with {wing1} ({digits1}) and {wing2} ({digits2}): one of the wings is {digit}, so {cannot}",
	"s.step.xyz-wing-classic":    "{technique}: {pivot} is {pivotdigits}, {wing1} is {digits1} and {wing2} is {digits2}: one of the three is {digit}, so {cannot}",
	"s.step.xy-wing-classic":     "{technique}: {pivot} is {x} or {y}; if {x}, {wing1} is {digit}, if {y}, {wing2} is {digit}; so {cannot}",
	"s.step.guess":               "guess: no technique finds a step here; {cell} is {digits}, and the solution has {digit} there",
	"s.step.chain":               "{technique}: {chain}, so {concl}",
	"s.step.chain-contradiction": "{technique}: if {src}, then both {chain1} and {chain2}, a contradiction, so {concl}",
	"s.step.chain-double":        "{technique}: whether {src} or not, {target} ({chain1}; {chain2}), so {concl}",
	"s.step.chain-cell":          "{technique}: {cell} is {digits}, and each case leads to {target} ({chains}), so {concl}",
	"s.step.chain-region":        "{technique}: {digit} goes in {cells} in {house}, and each case leads to {target} ({chains}), so {concl}",
	"s.step.links":               "{technique} on {digit}: {links}; one of the chain's ends is {digit}, so {cannot}",
	"s.step.links-loop":          "{technique} on {digit}: {links}; the chain closes into a loop on {digit}, so {cannot}",
	"s.step.aligned":             "{technique}: no combination of candidates of {cells} that leaves each of {excluders} a candidate (and no digit twice in one house) has {moves}",
	"s.step.als":                 "{technique}: {held} hold {digits} between them; {how}; so {cannot}",
	"s.step.why-als":             "{cell} ({x} or {z}) sees every {x} of the set: if it is not {x} it is {z}, and if it is, the set holds {z}",
	"s.step.why-als-double":      "{cell} ({x} or {z}) sees every {x} and every {z} of the set: the set and the cell are locked together",
	"s.step.unique":              "{technique}: {cells} on {d1} and {d2} would have two solutions; {why}, so {cannot}",
	"s.step.bug":                 "{technique}: without the extra candidates of {cells} every cell would have two candidates and every digit two places in each house, a pattern with two solutions; {why}, so {cannot}",
	// The clauses of a uniqueness step's reason ("message" values).
	"s.step.why-one-of":        "one of {cells} is {digit}",
	"s.step.why-unique-1":      "{cell} must hold another digit",
	"s.step.why-unique-naked":  "the extra digits of {cell1} and {cell2} make a naked set on {digits} with {cells} in {house}",
	"s.step.why-unique-hidden": "{cell1} and {cell2} make a hidden set on {digits} with {cells} in {house}",
	"s.step.why-unique-4":      "{digit} must be in {cell1} or {cell2} ({house}), so neither is {rem}",
	"s.step.why-bug-1":         "{cell} must be {digits}",
	"s.step.why-bug-3":         "the extra digits make a naked set on {digits} with {cells} in {house}",
	"s.step.why-bug-4":         "{cell1} or {cell2} holds its extra digit, and {digit} must be in one of them ({house})",
	// The parts of a "cannot" value: one digit out of several cells, or
	// a cell's digits (these joined with ", ").
	"s.step.cannot":      "{cells} cannot be {digit}",
	"s.step.cannot-cell": "{cell} cannot be {digits}",
}

// Messages returns the English templates of every message a step can
// carry, by key: the text with {name} where a value goes. A catalogue
// that says steps in another language has these keys, with the same
// placeholders.
func Messages() map[string]string { return maps.Clone(messages) }

// placeholderRE finds a template's placeholders.
var placeholderRE = regexp.MustCompile(`\{(\w+)\}`)

// Placeholders returns the names of a template's placeholders, each
// once, sorted.
func Placeholders(template string) []string {
	var out []string
	for _, m := range placeholderRE.FindAllStringSubmatch(template, -1) {
		out = append(out, m[1])
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// say sets the step's message and its Text, the message in English.
func (st *Step) say(key string, args ...Arg) {
	st.Message = Message{Key: key, Args: args}
	st.Text = st.Message.English()
}

// English writes the message in English, as Text says it ("" for a
// message with no key).
func (m Message) English() string { return m.Render(messages) }

// Render writes the message from templates, key -> a text with {name}
// where a value goes, the values in English: a front end's messages
// (its answers that are not steps) in the engine's words.
func (m Message) Render(templates map[string]string) string {
	return placeholderRE.ReplaceAllStringFunc(templates[m.Key], func(p string) string {
		name := p[1 : len(p)-1]
		for _, a := range m.Args {
			if a.Name == name {
				return a.english()
			}
		}
		return p
	})
}

// english writes a value in English.
func (a Arg) english() string {
	switch a.Kind {
	case "cell":
		return sudoku.CellName(a.Cells[0])
	case "cells":
		switch {
		case a.Or:
			return orList(a.Cells)
		case a.And && len(a.Cells) > 1:
			return cellList(a.Cells[:len(a.Cells)-1]) + " and " + sudoku.CellName(a.Cells[len(a.Cells)-1])
		}
		return cellList(a.Cells)
	case "digit":
		return strconv.Itoa(a.Digits[0])
	case "digits":
		if a.Or {
			return digitList(a.Digits, "or")
		}
		return digitList(a.Digits, "and")
	case "house":
		return a.Houses[0].String()
	case "houses":
		ns := make([]int, len(a.Houses))
		for i, h := range a.Houses {
			ns[i] = h.Index + 1
		}
		return a.Houses[0].Kind + "s " + digitList(ns, "and")
	case "technique":
		return a.Text
	case "cannot":
		return cannot(a.Moves)
	case "placed":
		return sudoku.CellName(a.Cells[0]) + " is " + strconv.Itoa(a.Digits[0])
	case "node":
		return a.Chains[0].Nodes[0].String()
	case "chain":
		return a.Chains[0].String()
	case "moves":
		parts := make([]string, len(a.Moves))
		for i, m := range a.Moves {
			parts[i] = m.String()
		}
		return strings.Join(parts, ", ")
	case "cellcands":
		var parts []string
		for i := 0; i < len(a.Moves); {
			j := i
			var ds []int
			for ; j < len(a.Moves) && a.Moves[j].Cell == a.Moves[i].Cell; j++ {
				ds = append(ds, a.Moves[j].Digit)
			}
			parts = append(parts, sudoku.CellName(a.Moves[i].Cell)+" ("+digitList(ds, "or")+")")
			i = j
		}
		return strings.Join(parts, ", ")
	case "candidates":
		parts := make([]string, len(a.Moves))
		for i, m := range a.Moves {
			parts[i] = strconv.Itoa(m.Digit) + " in " + sudoku.CellName(m.Cell)
		}
		return strings.Join(parts, ", ")
	case "links":
		parts := make([]string, len(a.Links))
		for i, l := range a.Links {
			parts[i] = placeName(l.From) + " = " + placeName(l.To) + " (" + l.House.String() + ")"
		}
		return strings.Join(parts, " - ")
	case "message":
		return a.Message.English()
	case "chains":
		parts := make([]string, len(a.Chains))
		for i, c := range a.Chains {
			parts[i] = c.String()
		}
		return strings.Join(parts, "; ")
	}
	return ""
}

// placeName writes a place of a strong link: a cell, or a group as
// "(r1c2, r1c3)".
func placeName(cs []int) string {
	if len(cs) == 1 {
		return sudoku.CellName(cs[0])
	}
	return "(" + cellList(cs) + ")"
}

// The values of a message.

func cellArg(name string, c int) Arg { return Arg{Name: name, Kind: "cell", Cells: []int{c}} }
func cellsArg(name string, cs []int) Arg {
	return Arg{Name: name, Kind: "cells", Cells: slices.Clone(cs)}
}
func digitArg(name string, d int) Arg { return Arg{Name: name, Kind: "digit", Digits: []int{d}} }
func houseArg(name string, h int) Arg {
	return Arg{Name: name, Kind: "house", Houses: []House{houseOfIndex(h)}}
}
func cannotArg(ms []Move) Arg { return Arg{Name: "cannot", Kind: "cannot", Moves: slices.Clone(ms)} }
func techArg(technique, text string) Arg {
	return Arg{Name: "technique", Kind: "technique", Technique: technique, Text: text}
}
func placedArg(name string, c, d int) Arg {
	return Arg{Name: name, Kind: "placed", Cells: []int{c}, Digits: []int{d}}
}
func nodeArg(name string, n ChainNode) Arg {
	return Arg{Name: name, Kind: "node", Chains: []Chain{{Nodes: []ChainNode{n}}}}
}
func msgArg(name string, m Message) Arg     { return Arg{Name: name, Kind: "message", Message: &m} }
func chainArg(name string, c Chain) Arg     { return Arg{Name: name, Kind: "chain", Chains: []Chain{c}} }
func chainsArg(name string, cs []Chain) Arg { return Arg{Name: name, Kind: "chains", Chains: cs} }
func digitsArg(name string, ds []int, or bool) Arg {
	return Arg{Name: name, Kind: "digits", Digits: slices.Clone(ds), Or: or}
}

// housesArg is a list of rows or of columns (houses 0-17).
func housesArg(name string, hs []int) Arg {
	a := Arg{Name: name, Kind: "houses"}
	for _, h := range hs {
		a.Houses = append(a.Houses, houseOfIndex(h))
	}
	return a
}
