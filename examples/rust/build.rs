// The zkgpu crate reports where libzkgpu.so lies (DEP_ZKGPU_LIBDIR, from its `links` key); an
// rpath there lets the program run without LD_LIBRARY_PATH. Not needed with ZKGPU_STATIC=1.
fn main() {
    if let (Ok(dir), Ok("0")) = (
        std::env::var("DEP_ZKGPU_LIBDIR"),
        std::env::var("DEP_ZKGPU_STATIC").as_deref(),
    ) {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
    }
}
