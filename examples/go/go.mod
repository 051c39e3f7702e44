module zkgpu-example

go 1.19

require zkgpu v0.0.0

// The binding is not published on a module proxy: build it from this checkout (a user points
// this at their copy of zkgpu's bindings/go).
replace zkgpu => ../../bindings/go
