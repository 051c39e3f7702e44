package hostbuf

import "testing"

func TestReuseAndBounds(t *testing.T) {
	Release()
	a, ok := Get(100)
	if !ok || a.P == nil || a.size < 100 {
		t.Fatalf("Get(100) = %+v, %v", a, ok)
	}
	*(*byte)(a.P) = 7
	Put(a)
	// A smaller or equal request reuses the kept buffer (the point of keeping it).
	b, _ := Get(50)
	if b.P != a.P {
		t.Fatal("a kept buffer large enough was not reused")
	}
	// While b is out, another request gets other memory.
	c, _ := Get(50)
	if c.P == b.P {
		t.Fatal("a buffer in use was handed out twice")
	}
	Put(b)
	Put(c)
	// At most maxFree are kept: the smallest go first.
	var bufs []Buf
	for i := 0; i < maxFree+2; i++ {
		x, _ := Get(uintptr(i+1) * round * 2)
		bufs = append(bufs, x)
	}
	for _, x := range bufs {
		Put(x)
	}
	pool.Lock()
	kept := len(pool.free)
	smallest := pool.free[0].size
	for _, f := range pool.free {
		if f.size < smallest {
			smallest = f.size
		}
	}
	pool.Unlock()
	if kept != maxFree || smallest < 3*round*2 {
		t.Fatalf("%d buffers kept, smallest %d bytes: want the %d largest", kept, smallest, maxFree)
	}
	if Kept() == 0 {
		t.Fatal("Kept() = 0 with buffers kept")
	}
	Release()
	if Kept() != 0 {
		t.Fatal("Release kept memory")
	}
	if z, ok := Get(0); !ok || z.P == nil {
		t.Fatal("Get(0) must not be NULL")
	} else {
		Put(z)
	}
}
