//! One 16-byte view of a views column (Arrow's `Utf8View` and
//! `BinaryView`), read by name: its length in the low 32 bits; then either
//! the string itself, of at most [`MAX_INLINE`] bytes, zero padded, or the
//! string's first 4 bytes (its prefix), the index of its data buffer and
//! its offset there. The layout tests of one view are here too; the
//! column (`super::views`) and its passes (`super::view_scan`,
//! `super::inline`) read views through this type, except the vector
//! kernels, which read two or four at once.

use super::error::Layout;

/// How long a string may be and still be held in its view.
pub(super) const MAX_INLINE: usize = 12;

/// A view, as the column holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct View(pub(super) u128);

impl View {
    /// The string's length.
    #[inline(always)]
    pub(super) fn len(self) -> usize {
        self.0 as u32 as usize
    }

    /// Whether the view holds its string itself.
    #[inline(always)]
    pub(super) fn is_inline(self) -> bool {
        self.len() <= MAX_INLINE
    }

    /// Bytes 4 to 16, then four zeros: an inline view's string and its
    /// padding, or a longer string's prefix, buffer index and offset.
    #[inline(always)]
    pub(super) fn after_len(self) -> [u8; 16] {
        (self.0 >> 32).to_le_bytes()
    }

    /// Byte 4: the string's first byte, inline or in its prefix.
    #[inline(always)]
    pub(super) fn first_byte(self) -> u8 {
        (self.0 >> 32) as u8
    }

    /// Bytes 4 to 8 as a little-endian word: a longer string's prefix.
    #[inline(always)]
    pub(super) fn prefix(self) -> u32 {
        (self.0 >> 32) as u32
    }

    /// The data buffer a longer string lies in.
    #[inline(always)]
    pub(super) fn buffer_index(self) -> usize {
        (self.0 >> 64) as u32 as usize
    }

    /// Where a longer string starts in its data buffer.
    #[inline(always)]
    pub(super) fn offset(self) -> usize {
        (self.0 >> 96) as u32 as usize
    }

    /// Whether the view is inline and has a byte other than `00` past its
    /// string.
    #[inline(always)]
    pub(super) fn has_dirty_padding(self) -> bool {
        // The bytes past an inline string, shifted down: zero when padded
        // right.
        let padding = (self.0 >> 32) >> (8 * self.len().min(MAX_INLINE));
        self.is_inline() & (padding != 0)
    }

    /// What is wrong with the view's layout, if anything.
    pub(super) fn fault<B: AsRef<[u8]>>(self, buffers: &[B]) -> Result<(), Layout> {
        if self.is_inline() {
            return match self.has_dirty_padding() {
                true => Err(Layout::ViewPadding),
                false => Ok(()),
            };
        }
        self.fault_in_buffer(buffers)
    }

    /// What is wrong with the layout of a view whose string is longer than
    /// [`MAX_INLINE`], if anything: its buffer index, its range, its
    /// prefix.
    #[inline(always)]
    pub(super) fn fault_in_buffer<B: AsRef<[u8]>>(self, buffers: &[B]) -> Result<(), Layout> {
        let buffer = buffers
            .get(self.buffer_index())
            .ok_or(Layout::ViewBufferIndex)?
            .as_ref();
        let bytes = self
            .offset()
            .checked_add(self.len())
            .and_then(|end| buffer.get(self.offset()..end))
            .ok_or(Layout::ViewRange)?;
        let first4: [u8; 4] = bytes[..4].try_into().expect("a string past 12 bytes");
        if u32::from_le_bytes(first4) != self.prefix() {
            return Err(Layout::ViewPrefix);
        }
        Ok(())
    }
}

/// A view's string, once its layout is checked.
pub(super) enum Place<'a> {
    /// The view's 12 data bytes (and 4 zeros), and the string's length.
    Inline([u8; 16], usize),
    /// A data buffer, and the string's offset and length in it.
    InBuffer(&'a [u8], usize, usize),
}
