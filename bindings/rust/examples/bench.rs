// Ed25519 verification throughput through the Rust binding, one JSON line per (size, backend,
// api): `zkgpu::ed25519::verify_batch` ("api": "rust") beside the raw C entry point called with
// its pointer arrays built beforehand ("api": "c_abi"), so the binding's own cost (the six
// pointer/length arrays and the Vec<bool>) shows as the gap between the two; and the packed
// forms, `verify_packed` on arrays packed beforehand ("rust_packed") and its C entry point
// ("c_abi_packed"). Compare with the C++ API's rates from `zkgpu ed25519 bench --json` at the
// same n (gpu_per_s, gpu_packed_per_s, cpu_per_s; same message length by default).
//
// The binding cannot sign, so the signatures come from the CLI: `zkgpu ed25519 generate --count
// N --seed 1 --msg-len L` (libsodium), parsed here (pk:sig:msg hex lines). Like the C++ bench,
// batches larger than the pool view it cyclically: every item is still verified in full.
//
//   cargo build --release --example bench
//   target/release/examples/bench --cli build/zkgpu [--sizes 1,64,4096,1048576] [--runs 5]
//       [--distinct 65536] [--msg-len 64] [--mode openssl|strict|zip215] [--backends cpu,auto,cuda]
//       [--input lines.txt]   (pk:sig:msg lines made earlier instead of running the CLI)
use std::process::{exit, Command};
use std::time::Instant;

use zkgpu::ed25519::{verify_batch, verify_packed, Item, Mode, PackedBatch};
use zkgpu::{sys, Backend};

struct Opts {
    cli: Option<String>,
    input: Option<String>,
    sizes: Vec<usize>,
    runs: usize,
    distinct: usize,
    msg_len: usize,
    mode: Mode,
    backends: Vec<Backend>,
    min_time: f64,
}

fn usage(msg: &str) -> ! {
    eprintln!("bench: {msg}");
    eprintln!(
        "usage: bench (--cli PATH | --input FILE) [--sizes 1,64,4096,1048576] [--runs 5] [--distinct 65536] \
         [--msg-len 64] [--mode openssl|strict|zip215] [--backends cpu,auto,cuda] [--min-time 0.2]"
    );
    exit(2)
}

fn parse_opts() -> Opts {
    let mut o = Opts {
        cli: None,
        input: None,
        sizes: vec![1, 64, 4096, 1 << 20],
        runs: 5,
        distinct: 1 << 16,
        msg_len: 64,
        mode: Mode::Openssl,
        backends: Vec::new(),
        min_time: 0.2,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let val = || {
            args.get(i + 1)
                .cloned()
                .unwrap_or_else(|| usage(&format!("{} needs a value", args[i])))
        };
        let num = |s: String| {
            s.parse::<usize>()
                .unwrap_or_else(|_| usage(&format!("not a number: {s}")))
        };
        match args[i].as_str() {
            "--cli" => o.cli = Some(val()),
            "--input" => o.input = Some(val()),
            "--sizes" => o.sizes = val().split(',').map(|s| num(s.to_string())).collect(),
            "--runs" => o.runs = num(val()).max(1),
            "--distinct" => o.distinct = num(val()).max(1),
            "--msg-len" => o.msg_len = num(val()),
            "--min-time" => {
                o.min_time = val()
                    .parse()
                    .unwrap_or_else(|_| usage("--min-time takes seconds"))
            }
            "--mode" => {
                o.mode = match val().as_str() {
                    "openssl" => Mode::Openssl,
                    "strict" => Mode::Strict,
                    "zip215" => Mode::Zip215,
                    m => usage(&format!("unknown mode {m}")),
                }
            }
            "--backends" => {
                o.backends = val()
                    .split(',')
                    .map(|b| match b {
                        "cpu" => Backend::Cpu,
                        "auto" => Backend::Auto,
                        "cuda" => Backend::Cuda,
                        _ => usage(&format!("unknown backend {b}")),
                    })
                    .collect()
            }
            "-h" | "--help" => usage("help"),
            a => usage(&format!("unknown argument {a}")),
        }
        i += 2;
    }
    if o.cli.is_none() && o.input.is_none() {
        usage("give --cli (to generate signatures) or --input");
    }
    if o.backends.is_empty() {
        o.backends = vec![Backend::Cpu, Backend::Auto];
        if zkgpu::cuda_usable() {
            o.backends.push(Backend::Cuda);
        }
    }
    o
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    let digit = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    };
    s.as_bytes()
        .chunks(2)
        .map(|p| Some(digit(p[0])? << 4 | digit(p[1])?))
        .collect()
}

/// Signatures stored contiguously (keys 32, signatures 64, messages msg_len bytes each).
struct Pool {
    keys: Vec<u8>,
    sigs: Vec<u8>,
    msgs: Vec<u8>,
    msg_off: Vec<(usize, usize)>,
}

fn load_pool(o: &Opts) -> Pool {
    let text = match (&o.input, &o.cli) {
        (Some(path), _) => {
            std::fs::read_to_string(path).unwrap_or_else(|e| usage(&format!("{path}: {e}")))
        }
        (None, Some(cli)) => {
            let out = Command::new(cli)
                .args([
                    "ed25519",
                    "generate",
                    "--count",
                    &o.distinct.to_string(),
                    "--seed",
                    "1",
                ])
                .args(["--msg-len", &o.msg_len.to_string()])
                .output()
                .unwrap_or_else(|e| usage(&format!("running {cli}: {e}")));
            if !out.status.success() {
                usage(&format!(
                    "{cli} ed25519 generate failed: {}",
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
            String::from_utf8(out.stdout).unwrap_or_else(|_| usage("the CLI printed non-UTF-8"))
        }
        (None, None) => unreachable!(),
    };
    let mut p = Pool {
        keys: Vec::new(),
        sigs: Vec::new(),
        msgs: Vec::new(),
        msg_off: Vec::new(),
    };
    for (n, line) in text.lines().enumerate() {
        let line = line.trim_end();
        if line.is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split(':').collect();
        let parsed = (f.len() == 3).then(|| (unhex(f[0]), unhex(f[1]), unhex(f[2])));
        let Some((Some(pk), Some(sig), Some(msg))) = parsed else {
            usage(&format!("line {}: not pk:sig:msg hex", n + 1))
        };
        p.keys.extend(pk);
        p.sigs.extend(sig);
        p.msg_off.push((p.msgs.len(), msg.len()));
        p.msgs.extend(msg);
    }
    if p.msg_off.is_empty()
        || p.keys.len() != 32 * p.msg_off.len()
        || p.sigs.len() != 64 * p.msg_off.len()
    {
        usage("the input holds no signatures, or keys/signatures of the wrong length");
    }
    p
}

impl Pool {
    fn items(&self, n: usize) -> Vec<Item<'_>> {
        let m = self.msg_off.len();
        (0..n)
            .map(|i| {
                let k = i % m;
                let (off, len) = self.msg_off[k];
                Item {
                    public_key: &self.keys[32 * k..32 * k + 32],
                    signature: &self.sigs[64 * k..64 * k + 64],
                    message: &self.msgs[off..off + len],
                }
            })
            .collect()
    }
}

/// Median over `runs` of the mean seconds per call, each run repeating the call for at least
/// `min_time` seconds (a single small batch is far below the clock's useful resolution). The
/// caller warms up first: first-call set-up (GPU context, tables) is not what is measured.
fn measure(runs: usize, min_time: f64, mut f: impl FnMut()) -> f64 {
    let mut samples: Vec<f64> = (0..runs)
        .map(|_| {
            let t0 = Instant::now();
            let mut reps = 0u32;
            loop {
                f();
                reps += 1;
                let el = t0.elapsed().as_secs_f64();
                if el >= min_time {
                    return el / f64::from(reps);
                }
            }
        })
        .collect();
    samples.sort_by(|a, b| a.partial_cmp(b).unwrap());
    samples[samples.len() / 2]
}

fn name(b: Backend) -> &'static str {
    match b {
        Backend::Auto => "auto",
        Backend::Cpu => "cpu",
        Backend::Cuda => "cuda",
    }
}

fn raw_backend(b: Backend) -> sys::zkgpu_backend {
    match b {
        Backend::Auto => sys::ZKGPU_BACKEND_AUTO,
        Backend::Cpu => sys::ZKGPU_BACKEND_CPU,
        Backend::Cuda => sys::ZKGPU_BACKEND_CUDA,
    }
}

fn main() {
    let o = parse_opts();
    let pool = load_pool(&o);
    let mode_name = format!("{:?}", o.mode).to_lowercase();
    let raw_mode = match o.mode {
        Mode::Openssl => sys::ZKGPU_ED25519_OPENSSL,
        Mode::Strict => sys::ZKGPU_ED25519_STRICT,
        Mode::Zip215 => sys::ZKGPU_ED25519_ZIP215,
    };
    for &n in &o.sizes {
        let items = pool.items(n);
        // The C entry point's arrays, built once outside the timed region.
        let pks: Vec<*const u8> = items.iter().map(|it| it.public_key.as_ptr()).collect();
        let sigs: Vec<*const u8> = items.iter().map(|it| it.signature.as_ptr()).collect();
        let msgs: Vec<*const u8> = items.iter().map(|it| it.message.as_ptr()).collect();
        let pk_lens = vec![32usize; n];
        let sig_lens = vec![64usize; n];
        let msg_lens: Vec<usize> = items.iter().map(|it| it.message.len()).collect();
        let mut verdicts = vec![0u8; n];
        // The same items packed, built outside the timed region.
        let mut packed_keys = Vec::with_capacity(32 * n);
        let mut packed_sigs = Vec::with_capacity(64 * n);
        let mut packed_msgs = Vec::new();
        let mut offsets = vec![0u64];
        for it in &items {
            packed_keys.extend_from_slice(it.public_key);
            packed_sigs.extend_from_slice(it.signature);
            packed_msgs.extend_from_slice(it.message);
            offsets.push(packed_msgs.len() as u64);
        }
        let packed = PackedBatch {
            public_keys: &packed_keys,
            signatures: &packed_sigs,
            messages: &packed_msgs,
            message_offsets: &offsets,
        };
        for &b in &o.backends {
            // Every signature is valid: a wrong verdict makes the numbers meaningless. This call
            // is also the warm-up of both measurements (at 2^20 on a small CPU a call is minutes).
            match verify_batch(&items, o.mode, b) {
                Ok(v) if v.iter().all(|&x| x) => {}
                Ok(_) => {
                    eprintln!("bench: {} rejected a valid signature at n = {n}", name(b));
                    exit(1)
                }
                Err(e) => {
                    eprintln!("bench: {} at n = {n}: {e}", name(b));
                    continue;
                }
            }
            let rust = measure(o.runs, o.min_time, || {
                std::hint::black_box(verify_batch(&items, o.mode, b).unwrap());
            });
            let c_abi = measure(o.runs, o.min_time, || {
                // SAFETY: every array holds n entries pointing into the pool, verdicts n bytes.
                let st = unsafe {
                    sys::zkgpu_ed25519_verify_batch(
                        pks.as_ptr(),
                        pk_lens.as_ptr(),
                        sigs.as_ptr(),
                        sig_lens.as_ptr(),
                        msgs.as_ptr(),
                        msg_lens.as_ptr(),
                        n,
                        raw_mode,
                        raw_backend(b),
                        verdicts.as_mut_ptr(),
                    )
                };
                assert_eq!(st, sys::ZKGPU_OK);
            });
            let rust_packed = measure(o.runs, o.min_time, || {
                std::hint::black_box(verify_packed(&packed, o.mode, b).unwrap());
            });
            let c_abi_packed = measure(o.runs, o.min_time, || {
                // SAFETY: the packed arrays hold n items with n + 1 offsets; verdicts n bytes.
                let st = unsafe {
                    sys::zkgpu_ed25519_verify_batch_packed(
                        packed_keys.as_ptr(),
                        packed_sigs.as_ptr(),
                        packed_msgs.as_ptr(),
                        offsets.as_ptr(),
                        n,
                        raw_mode,
                        raw_backend(b),
                        verdicts.as_mut_ptr(),
                    )
                };
                assert_eq!(st, sys::ZKGPU_OK);
            });
            for (api, secs) in [
                ("rust", rust),
                ("c_abi", c_abi),
                ("rust_packed", rust_packed),
                ("c_abi_packed", c_abi_packed),
            ] {
                println!(
                    "{{\"bench\":\"ed25519_verify_batch\",\"api\":\"{api}\",\"backend\":\"{}\",\"mode\":\"{mode_name}\",\
                     \"n\":{n},\"msg_len\":{},\"distinct\":{},\"runs\":{},\"median_s_per_call\":{secs:.9},\
                     \"verifications_per_s\":{:.1},\"zkgpu_version\":\"{}\"}}",
                    name(b),
                    items.first().map_or(0, |it| it.message.len()),
                    pool.msg_off.len().min(n),
                    o.runs,
                    n as f64 / secs,
                    zkgpu::version()
                );
            }
        }
    }
}
