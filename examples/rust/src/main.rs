// Verifies a small batch (RFC 8032 §7.1 TEST 1-3, and TEST 2 with its message changed) on the
// CPU and with Backend::Auto, and exits non-zero unless the verdicts are [true, true, true, false].
use zkgpu::ed25519::{verify_batch, Item, Mode};
use zkgpu::Backend;

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn main() {
    let v = [
        ("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
         "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b", ""),
        ("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
         "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00", "72"),
        ("fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
         "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a", "af82"),
        ("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
         "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00", "73"),
    ];
    let bytes: Vec<[Vec<u8>; 3]> = v
        .iter()
        .map(|(pk, sig, msg)| [unhex(pk), unhex(sig), unhex(msg)])
        .collect();
    let items: Vec<Item> = bytes
        .iter()
        .map(|[pk, sig, msg]| Item {
            public_key: pk,
            signature: sig,
            message: msg,
        })
        .collect();

    println!(
        "zkgpu {} (CUDA usable: {})",
        zkgpu::version(),
        zkgpu::cuda_usable()
    );
    for backend in [Backend::Cpu, Backend::Auto] {
        match verify_batch(&items, Mode::Openssl, backend) {
            Ok(verdicts) => {
                println!("{backend:?}: {verdicts:?}");
                if verdicts != [true, true, true, false] {
                    eprintln!("unexpected verdicts");
                    std::process::exit(1);
                }
            }
            Err(e) => {
                eprintln!("{backend:?}: {e}");
                std::process::exit(1);
            }
        }
    }
}
