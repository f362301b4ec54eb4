// Writes a bits-and-blooms/bloom filter for bloomviz's reader tests (run by make_samples.py, GOPATH mode,
// against Debian's golang-github-willf-bloom-dev sources). Args: outDir itemsFile probesFile.
// Writes go-bloom.writeto (WriteTo), go-bloom.marshal.json (json.Marshal) and go-bloom.answers
// (m, k, set bits, then one 0/1 TestString answer per probe).
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/bits-and-blooms/bloom"
)

func lines(path string) []string {
	data, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

func main() {
	dir := os.Args[1]
	f := bloom.NewWithEstimates(500, 0.01)
	for _, s := range lines(os.Args[2]) {
		f.AddString(s)
	}
	out, err := os.Create(filepath.Join(dir, "go-bloom.writeto"))
	if err != nil {
		panic(err)
	}
	if _, err := f.WriteTo(out); err != nil {
		panic(err)
	}
	out.Close()
	js, err := json.Marshal(f)
	if err != nil {
		panic(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go-bloom.marshal.json"), js, 0o644); err != nil {
		panic(err)
	}
	ans, err := os.Create(filepath.Join(dir, "go-bloom.answers"))
	if err != nil {
		panic(err)
	}
	w := bufio.NewWriter(ans)
	fmt.Fprintf(w, "%d\n%d\n%d\n", f.Cap(), f.K(), f.BitSet().Count())
	for _, p := range lines(os.Args[3]) {
		if f.TestString(p) {
			fmt.Fprintln(w, 1)
		} else {
			fmt.Fprintln(w, 0)
		}
	}
	w.Flush()
	ans.Close()
}
