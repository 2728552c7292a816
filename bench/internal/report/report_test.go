package report

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestTableMarkdown(t *testing.T) {
	tb := Table{Header: []string{"n", "kernel", "seconds"}, Align: "rlr"}
	tb.AddRow("16", "a|b", "1.25")
	tb.AddRow("17") // short rows are padded
	want := "| n | kernel | seconds |\n" +
		"|---:|---|---:|\n" +
		"| 16 | a\\|b | 1.25 |\n" +
		"| 17 |  |  |\n"
	if got := tb.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestReplaceBlock(t *testing.T) {
	for _, tc := range []struct {
		name, doc, want string
	}{
		{"keeps text around", "# R\nintro\n" + Begin + "\nold\n" + End + "\noutro\n",
			"# R\nintro\n" + Begin + "\nnew\n" + End + "\noutro\n"},
		{"empty block", "a " + Begin + End + " b", "a " + Begin + "\nnew\n" + End + " b"},
		{"appends", "# R\nhand-written", "# R\nhand-written\n\n" + Begin + "\nnew\n" + End + "\n"},
		{"new file", "", Begin + "\nnew\n" + End + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReplaceBlock(tc.doc, "new")
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			// Replacing again is stable.
			again, err := ReplaceBlock(got, "new\n")
			if err != nil || again != got {
				t.Errorf("second replacement changed the document: %q, %v", again, err)
			}
		})
	}
	for _, doc := range []string{
		Begin + " only",
		"only " + End,
		End + " reversed " + Begin,
		Begin + End + Begin + End,
	} {
		if _, err := ReplaceBlock(doc, "x"); !errors.Is(err, ErrMarkers) {
			t.Errorf("ReplaceBlock(%q): err %v, want ErrMarkers", doc, err)
		}
	}
}

func TestChartSVG(t *testing.T) {
	c := Chart{
		Title: "Throughput <test> & co", XLabel: "n", YLabel: "solutions/s", LogY: true,
		Series: []Series{
			{Name: "Go constellations", Points: []Point{{12, 2e8}, {13, 3e8}, {14, 5e8}}},
			{Name: "C halving", Points: []Point{{12, 1e8}, {13, 0}, {14, 1.5e8}}}, // a zero is dropped on a log axis
		},
	}
	svg := c.SVG()
	if !bytes.Equal(svg, c.SVG()) {
		t.Fatal("SVG output is not deterministic")
	}
	// Well-formed XML.
	d := xml.NewDecoder(bytes.NewReader(svg))
	for {
		_, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v\n%s", err, svg)
		}
	}
	s := string(svg)
	for _, want := range []string{"<svg ", "Throughput &lt;test&gt; &amp; co", "Go constellations", "C halving", ">100M<", ">1G<", "<polyline"} {
		if !strings.Contains(s, want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	if n := strings.Count(s, "<circle"); n != 5 {
		t.Errorf("%d markers, want 5 (the zero dropped)", n)
	}
	if strings.Contains(s, "NaN") || strings.Contains(s, "Inf") {
		t.Errorf("SVG has a NaN or Inf coordinate")
	}

	lin := Chart{Title: "Speed-up", Series: []Series{
		{Name: "ideal", Dashed: true, Points: []Point{{1, 1}, {2, 2}}},
		{Name: "n=17", Points: []Point{{1, 1}, {2, 1.93}}},
	}}
	ls := string(lin.SVG())
	if !strings.Contains(ls, "stroke-dasharray") || strings.Contains(ls, "NaN") {
		t.Errorf("linear chart wrong:\n%s", ls)
	}
	empty := (&Chart{Title: "nothing"}).SVG()
	if bytes.Contains(empty, []byte("NaN")) {
		t.Errorf("empty chart has NaN")
	}
}

func TestNiceAndLabels(t *testing.T) {
	for _, tc := range []struct{ in, want float64 }{{0.37, 0.5}, {1, 1}, {1.2, 2}, {3, 5}, {7, 10}, {2.1, 5}} {
		if got := niceCeil(tc.in); got != tc.want {
			t.Errorf("niceCeil(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
	for _, tc := range []struct {
		in   float64
		want string
	}{{1e9, "1G"}, {2.5e6, "2.5M"}, {1000, "1k"}, {2, "2"}, {0.5, "0.5"}} {
		if got := tickLabel(tc.in); got != tc.want {
			t.Errorf("tickLabel(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
