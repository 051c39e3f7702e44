package cabi

import (
	"runtime"
	"sync"
)

// The OS threads the library is called on. Why: the library's CPU work and chunk packing run on
// OpenMP, whose thread team belongs to the OS thread that starts the parallel region, and a
// goroutine moves between OS threads from one call to the next. A goroutine calling in a loop
// would meet a different team each time, asleep by then, instead of the one its last call left
// spinning: on the H200 host the packed Ed25519 call of 4096 items took 0.70 ms from Go against
// 0.57 ms from Rust's one thread (docs/go.md). So calls run on a few locked threads, the most
// recently freed one first: one caller at a time always meets the same thread (and its CUDA
// context binding); concurrent callers get a thread each.
type libThread struct {
	run  chan func()
	done chan any // what f panicked with, or nil
}

var libThreads struct {
	sync.Mutex
	free []*libThread // a stack: the last one freed is the warmest
}

func newLibThread() *libThread {
	t := &libThread{run: make(chan func()), done: make(chan any)}
	go func() {
		runtime.LockOSThread() // for good: the thread is this goroutine's
		for f := range t.run {
			t.done <- runCatching(f)
		}
	}()
	return t
}

func runCatching(f func()) (panicked any) {
	defer func() { panicked = recover() }()
	f()
	return nil
}

// onLibThread runs f on one of the library's threads and waits for it; a panic in f is raised
// again here, in the caller's goroutine.
func onLibThread(f func()) {
	libThreads.Lock()
	var t *libThread
	if k := len(libThreads.free); k > 0 {
		t, libThreads.free = libThreads.free[k-1], libThreads.free[:k-1]
	}
	libThreads.Unlock()
	if t == nil {
		t = newLibThread()
	}
	t.run <- f
	p := <-t.done
	libThreads.Lock()
	libThreads.free = append(libThreads.free, t)
	libThreads.Unlock()
	if p != nil {
		panic(p)
	}
}
