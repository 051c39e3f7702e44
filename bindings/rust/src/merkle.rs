//! Merkle commitments to a BabyBear matrix: Plonky3's `MerkleTreeMmcs` with arity 2, cap height 0
//! and the Poseidon2-16 sponge (`PaddingFreeSponge<16, 8, 8>`) and compression
//! (`TruncatedPermutation<2, 8, 16>`).
use std::ptr::NonNull;

use crate::babybear::{Poseidon2Constants, Repr};
use crate::{sys, Backend, Error};

/// A digest: 8 words, in the representation of the tree or call it came from.
pub type Digest = [u32; 8];

/// The opening of one row: the row and one sibling digest per level, leaf level first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub row: Vec<u32>,
    pub siblings: Vec<Digest>,
}

/// A committed matrix (the library keeps a copy to answer openings). Freed on drop.
pub struct MerkleTree {
    raw: NonNull<sys::zkgpu_merkle_tree>,
    rows: usize,
    cols: usize,
    depth: usize,
    repr: Repr,
}

// SAFETY: zkgpu.h: handles are immutable after creation and may be used from several threads at
// once; the tree owns its memory, so moving it to another thread (and freeing it there) is fine.
unsafe impl Send for MerkleTree {}
unsafe impl Sync for MerkleTree {}

impl MerkleTree {
    /// Commits to the row-major `matrix` of `width` columns (`matrix.len() / width` rows, a
    /// power of two). Roots, nodes and openings come back in `repr`.
    pub fn build(
        matrix: &[u32],
        width: usize,
        constants: Poseidon2Constants,
        repr: Repr,
        backend: Backend,
    ) -> Result<MerkleTree, Error> {
        if width == 0
            || !matrix.len().is_multiple_of(width)
            || !(matrix.len() / width).is_power_of_two()
        {
            return Err(Error::invalid(format!(
                "merkle::MerkleTree::build: {} words in rows of width {width} do not make a power-of-two number of rows",
                matrix.len()
            )));
        }
        let rows = matrix.len() / width;
        // SAFETY: matrix holds rows * width words; the handle comes back through the out pointer.
        let raw = crate::created("zkgpu_merkle_build: null tree", |out| unsafe {
            sys::zkgpu_merkle_build(
                matrix.as_ptr(),
                rows,
                width,
                constants.c_name().as_ptr(),
                repr.raw(),
                backend.raw(),
                out,
            )
        })?;
        let mut tree = MerkleTree {
            raw,
            rows,
            cols: width,
            depth: 0,
            repr,
        };
        let (mut r, mut c, mut d) = (0usize, 0usize, 0usize);
        // SAFETY: a live handle and three out pointers.
        Error::check(unsafe {
            sys::zkgpu_merkle_shape(tree.raw.as_ptr(), &mut r, &mut c, &mut d)
        })?;
        debug_assert_eq!((r, c), (rows, width));
        tree.depth = d;
        Ok(tree)
    }

    pub fn rows(&self) -> usize {
        self.rows
    }
    pub fn cols(&self) -> usize {
        self.cols
    }
    /// log2(rows): the number of sibling digests in an opening.
    pub fn depth(&self) -> usize {
        self.depth
    }
    pub fn repr(&self) -> Repr {
        self.repr
    }

    pub fn root(&self) -> Result<Digest, Error> {
        let mut root = [0u32; 8];
        // SAFETY: root has ZKGPU_DIGEST_WORDS words.
        Error::check(unsafe { sys::zkgpu_merkle_root(self.raw.as_ptr(), root.as_mut_ptr()) })?;
        Ok(root)
    }

    /// Every node: `2 * rows - 1` digests, the leaves first, then each level up, the root last.
    pub fn nodes(&self) -> Result<Vec<Digest>, Error> {
        let mut nodes = vec![[0u32; 8]; 2 * self.rows - 1];
        // SAFETY: [u32; 8] has no padding, so the Vec is (2 rows - 1) * 8 contiguous words.
        Error::check(unsafe {
            sys::zkgpu_merkle_nodes(
                self.raw.as_ptr(),
                nodes.as_mut_ptr().cast(),
                nodes.len() * sys::ZKGPU_DIGEST_WORDS,
            )
        })?;
        Ok(nodes)
    }

    /// The opening of row `index` (InvalidArgument when `index >= rows`).
    pub fn open(&self, index: usize) -> Result<Opening, Error> {
        let mut row = vec![0u32; self.cols];
        let mut siblings = vec![[0u32; 8]; self.depth];
        // SAFETY: row has cols words and siblings depth * 8, the lengths passed.
        Error::check(unsafe {
            sys::zkgpu_merkle_open(
                self.raw.as_ptr(),
                index,
                row.as_mut_ptr(),
                row.len(),
                siblings.as_mut_ptr().cast(),
                siblings.len() * sys::ZKGPU_DIGEST_WORDS,
            )
        })?;
        Ok(Opening { row, siblings })
    }
}

impl Drop for MerkleTree {
    fn drop(&mut self) {
        // SAFETY: the handle came from zkgpu_merkle_build and is freed exactly once.
        unsafe { sys::zkgpu_merkle_free(self.raw.as_ptr()) }
    }
}

impl std::fmt::Debug for MerkleTree {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MerkleTree")
            .field("rows", &self.rows)
            .field("cols", &self.cols)
            .field("repr", &self.repr)
            .finish()
    }
}

/// Checks `opening` of row `index` of a `rows x cols` commitment against `root`. A wrong
/// opening (wrong row, sibling, index, depth, a word >= p) is `Ok(false)`; errors are for the
/// call itself (e.g. `opening.row.len() != cols`).
pub fn verify(
    root: &Digest,
    rows: usize,
    cols: usize,
    index: usize,
    opening: &Opening,
    constants: Poseidon2Constants,
    repr: Repr,
) -> Result<bool, Error> {
    if opening.row.len() != cols {
        return Err(Error::invalid(format!(
            "merkle::verify: a row of {} words for {cols} columns",
            opening.row.len()
        )));
    }
    let mut accepted = 0u8;
    // SAFETY: root has 8 words, row cols words, siblings depth digests (the length passed).
    Error::check(unsafe {
        sys::zkgpu_merkle_verify(
            root.as_ptr(),
            rows,
            cols,
            index,
            opening.row.as_ptr(),
            opening.siblings.as_ptr().cast(),
            opening.siblings.len(),
            constants.c_name().as_ptr(),
            repr.raw(),
            &mut accepted,
        )
    })?;
    Ok(accepted == 1)
}
