module zkgpu

go 1.19
