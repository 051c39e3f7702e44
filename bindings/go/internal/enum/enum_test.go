package enum

import (
	"math"
	"testing"
)

type color int32

const (
	red  color = 0
	blue color = 2
)

func TestName(t *testing.T) {
	for _, c := range []struct {
		v    color
		want string
	}{{red, "red"}, {blue, "blue"}, {1, "color(1)"}, {3, "color(3)"}, {-7, "color(-7)"}, {math.MaxInt32, "color(2147483647)"}} {
		if got := Name(c.v, []string{red: "red", blue: "blue"}, "color(%d)"); got != c.want {
			t.Errorf("Name(%d) = %q, want %q", int32(c.v), got, c.want)
		}
	}
}
