// Shared by the integration tests: the vector files of tests/vectors (read at test time, relative
// to this crate), a small JSON reader (no serde: the crate has no dependencies), hex, and a
// deterministic generator for random inputs.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::PathBuf;

/// Cpu and Auto always; Cuda where a GPU is usable (elsewhere the Cuda paths are checked to
/// fail with Unavailable).
pub fn backends() -> Vec<zkgpu::Backend> {
    let mut b = vec![zkgpu::Backend::Cpu, zkgpu::Backend::Auto];
    if zkgpu::cuda_usable() {
        b.push(zkgpu::Backend::Cuda);
    }
    b
}

/// tests/vectors of this checkout; ZKGPU_VECTORS_DIR overrides it for test binaries carried to
/// another machine (CARGO_MANIFEST_DIR is the path at build time).
pub fn vectors_dir() -> PathBuf {
    match std::env::var_os("ZKGPU_VECTORS_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/vectors"),
    }
}

pub fn read_vector(rel: &str) -> String {
    let path = vectors_dir().join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

pub fn read_json(rel: &str) -> Json {
    let text = read_vector(rel);
    Json::parse(&text).unwrap_or_else(|e| panic!("parsing {rel}: {e}"))
}

pub fn hex(s: &str) -> Vec<u8> {
    assert!(s.len().is_multiple_of(2), "odd-length hex {s:?}");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex digit"))
        .collect()
}

pub fn to_hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Item `i` of `size`-byte items packed back to back.
pub fn nth(packed: &[u8], size: usize, i: usize) -> &[u8] {
    &packed[i * size..(i + 1) * size]
}

/// SplitMix64: fixed seeds make failures reproducible; ZKGPU_TEST_SEED overrides the seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        let seed = std::env::var("ZKGPU_TEST_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(seed);
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next_u64() as u8).collect()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    // Kept as text: vector files hold integers beyond f64's exact range.
    Num(String),
    Str(String),
    Arr(Vec<Json>),
    Obj(BTreeMap<String, Json>),
}

impl Json {
    pub fn parse(text: &str) -> Result<Json, String> {
        let mut p = Parser {
            s: text.as_bytes(),
            i: 0,
        };
        let v = p.value()?;
        p.ws();
        if p.i != p.s.len() {
            return Err(format!("trailing characters at byte {}", p.i));
        }
        Ok(v)
    }
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(m) => m.get(key),
            _ => None,
        }
    }
    /// self[key], panicking with the key's name when absent (tests: a missing field is a bug).
    pub fn at(&self, key: &str) -> &Json {
        self.get(key)
            .unwrap_or_else(|| panic!("no key {key:?} in {}", self.brief()))
    }
    pub fn arr(&self) -> &[Json] {
        match self {
            Json::Arr(a) => a,
            _ => panic!("not an array: {}", self.brief()),
        }
    }
    pub fn str(&self) -> &str {
        match self {
            Json::Str(s) => s,
            _ => panic!("not a string: {}", self.brief()),
        }
    }
    pub fn u64(&self) -> u64 {
        match self {
            Json::Num(n) => n.parse().unwrap_or_else(|_| panic!("not a u64: {n}")),
            _ => panic!("not a number: {}", self.brief()),
        }
    }
    pub fn u32s(&self) -> Vec<u32> {
        self.arr()
            .iter()
            .map(|v| u32::try_from(v.u64()).expect("fits u32"))
            .collect()
    }
    fn brief(&self) -> String {
        let s = format!("{self:?}");
        s.chars().take(120).collect()
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }
    fn expect(&mut self, c: u8) -> Result<(), String> {
        self.ws();
        if self.peek() == Some(c) {
            self.i += 1;
            Ok(())
        } else {
            Err(format!("expected {:?} at byte {}", c as char, self.i))
        }
    }
    fn value(&mut self) -> Result<Json, String> {
        self.ws();
        match self.peek() {
            Some(b'{') => {
                let mut m = BTreeMap::new();
                self.seq(b'}', |p| {
                    p.ws();
                    let k = p.string()?;
                    p.expect(b':')?;
                    m.insert(k, p.value()?);
                    Ok(())
                })?;
                Ok(Json::Obj(m))
            }
            Some(b'[') => {
                let mut a = Vec::new();
                self.seq(b']', |p| {
                    a.push(p.value()?);
                    Ok(())
                })?;
                Ok(Json::Arr(a))
            }
            Some(b'"') => Ok(Json::Str(self.string()?)),
            Some(b't') => self.word("true", Json::Bool(true)),
            Some(b'f') => self.word("false", Json::Bool(false)),
            Some(b'n') => self.word("null", Json::Null),
            Some(c) if c == b'-' || c.is_ascii_digit() => {
                let start = self.i;
                while self.i < self.s.len()
                    && matches!(
                        self.s[self.i],
                        b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'
                    )
                {
                    self.i += 1;
                }
                Ok(Json::Num(
                    String::from_utf8_lossy(&self.s[start..self.i]).into_owned(),
                ))
            }
            _ => Err(format!("unexpected input at byte {}", self.i)),
        }
    }
    /// The entries of an object or array whose opening bracket is next, up to `close`, each read
    /// by `entry`.
    fn seq(
        &mut self,
        close: u8,
        mut entry: impl FnMut(&mut Self) -> Result<(), String>,
    ) -> Result<(), String> {
        self.i += 1;
        self.ws();
        if self.peek() == Some(close) {
            self.i += 1;
            return Ok(());
        }
        loop {
            entry(self)?;
            self.ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(c) if c == close => {
                    self.i += 1;
                    return Ok(());
                }
                _ => {
                    return Err(format!(
                        "expected , or {} at byte {}",
                        close as char, self.i
                    ))
                }
            }
        }
    }
    fn word(&mut self, w: &str, v: Json) -> Result<Json, String> {
        if self.s[self.i..].starts_with(w.as_bytes()) {
            self.i += w.len();
            Ok(v)
        } else {
            Err(format!("bad literal at byte {}", self.i))
        }
    }
    fn string(&mut self) -> Result<String, String> {
        if self.peek() != Some(b'"') {
            return Err(format!("expected string at byte {}", self.i));
        }
        self.i += 1;
        let mut out = String::new();
        loop {
            let c = self.peek().ok_or("unterminated string")?;
            self.i += 1;
            match c {
                b'"' => return Ok(out),
                b'\\' => {
                    let e = self.peek().ok_or("unterminated escape")?;
                    self.i += 1;
                    match e {
                        b'n' => out.push('\n'),
                        b't' => out.push('\t'),
                        b'r' => out.push('\r'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'u' => {
                            let h = std::str::from_utf8(&self.s[self.i..self.i + 4])
                                .map_err(|e| e.to_string())?;
                            let mut cp = u32::from_str_radix(h, 16).map_err(|e| e.to_string())?;
                            self.i += 4;
                            // A surrogate pair is two \u escapes.
                            if (0xd800..0xdc00).contains(&cp)
                                && self.s[self.i..].starts_with(b"\\u")
                            {
                                let h2 = std::str::from_utf8(&self.s[self.i + 2..self.i + 6])
                                    .map_err(|e| e.to_string())?;
                                let lo = u32::from_str_radix(h2, 16).map_err(|e| e.to_string())?;
                                self.i += 6;
                                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                            }
                            out.push(char::from_u32(cp).unwrap_or('\u{fffd}'));
                        }
                        other => out.push(other as char),
                    }
                }
                _ => {
                    // Copy a run of plain bytes at once (keeps multi-byte UTF-8 intact).
                    let start = self.i - 1;
                    while self.i < self.s.len() && !matches!(self.s[self.i], b'"' | b'\\') {
                        self.i += 1;
                    }
                    out.push_str(
                        std::str::from_utf8(&self.s[start..self.i]).map_err(|e| e.to_string())?,
                    );
                }
            }
        }
    }
}
