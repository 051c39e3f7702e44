// Finds the installed zkgpu library with the `pkg-config` command (no crates: the crate must build
// offline) and tells cargo how to link it.
//
// Environment:
//   PKG_CONFIG_PATH   where zkgpu.pc lies (e.g. <prefix>/lib/pkgconfig), read by pkg-config itself
//   PKG_CONFIG        the pkg-config program (default `pkg-config`)
//   ZKGPU_STATIC=1    link libzkgpu.a and its private dependencies (`pkg-config --static`), so the
//                     binaries carry the library (and, in a CUDA build, cudart_static) and run
//                     where only the system's C++ runtime and libgomp are installed
use std::env;
use std::process::Command;

fn main() {
    for var in [
        "PKG_CONFIG_PATH",
        "PKG_CONFIG",
        "PKG_CONFIG_LIBDIR",
        "PKG_CONFIG_SYSROOT_DIR",
        "ZKGPU_STATIC",
    ] {
        println!("cargo:rerun-if-env-changed={var}");
    }
    println!("cargo:rerun-if-changed=build.rs");
    let statik = env::var("ZKGPU_STATIC").map(|v| v == "1").unwrap_or(false);
    let pkg_config = env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".to_string());

    let mut args = vec!["--libs"];
    if statik {
        args.push("--static");
    }
    args.push("zkgpu");
    let out = match Command::new(&pkg_config).args(&args).output() {
        Ok(o) => o,
        Err(e) => fail(&format!(
            "could not run `{pkg_config}` ({e}); install pkg-config (Debian: apt-get install pkg-config)"
        )),
    };
    if !out.status.success() {
        fail(&format!(
            "`{pkg_config} {}` failed: {}\nInstall zkgpu (cmake --install <build> --prefix <prefix>) and set \
             PKG_CONFIG_PATH=<prefix>/lib/pkgconfig",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let flags = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut lib_dirs = Vec::new();
    let mut libs = Vec::new();
    let mut openmp = false;
    for tok in flags.split_whitespace() {
        if let Some(dir) = tok.strip_prefix("-L") {
            // zkgpu.pc is relocatable (prefix=${pcfiledir}/../..): resolve the `..` so the rpath
            // and error messages name the real directory.
            let dir = std::fs::canonicalize(dir)
                .map(|p| p.display().to_string())
                .unwrap_or_else(|_| dir.to_string());
            lib_dirs.push(dir);
        } else if let Some(lib) = tok.strip_prefix("-l") {
            libs.push(lib.to_string());
        } else if tok == "-fopenmp" {
            // A compiler flag, not a library: rustc links with cc, which only adds libgomp when
            // it is told to compile with OpenMP, so name the runtime explicitly.
            openmp = true;
        } else if tok == "-pthread" {
            libs.push("pthread".to_string());
        }
        // Other flags (e.g. -Wl,...) are passed on unchanged.
        else {
            println!("cargo:rustc-link-arg={tok}");
        }
    }
    for dir in &lib_dirs {
        println!("cargo:rustc-link-search=native={dir}");
    }
    for lib in &libs {
        if statik && lib == "zkgpu" {
            println!("cargo:rustc-link-lib=static=zkgpu");
        } else {
            println!("cargo:rustc-link-lib={lib}");
        }
    }
    if statik {
        // libzkgpu.a is C++: its users' linker line must bring the C++ runtime, which a C++
        // compiler would add implicitly (cc does not).
        if openmp {
            println!("cargo:rustc-link-lib=gomp");
        }
        if !libs.iter().any(|l| l == "stdc++" || l == "c++") {
            println!("cargo:rustc-link-lib=stdc++");
        }
    }
    // The directory of libzkgpu.so, for dependents' build scripts (DEP_ZKGPU_LIBDIR, through
    // `links = "zkgpu"`) and for this crate's own tests and examples: an rpath lets them run from
    // `cargo test` without LD_LIBRARY_PATH. (rustc-link-arg reaches only this package's targets.)
    if let Some(dir) = lib_dirs.first() {
        println!("cargo:libdir={dir}");
        if !statik {
            println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
        }
    }
    println!("cargo:static={}", if statik { 1 } else { 0 });
}

fn fail(msg: &str) -> ! {
    eprintln!("zkgpu build.rs: {msg}");
    std::process::exit(1);
}
