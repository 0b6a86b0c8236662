//! The integer types an offsets column's offsets come in
//! ([`Offset`]), apart from the column (`super::offsets`) so that the
//! stages that read offsets (`super::first_bytes`) import them one way.

/// The integer types offsets come in: Arrow's `i32` and `i64`, and the
/// unsigned and `usize` forms other systems use.
pub trait Offset: Copy + Ord + sealed::Sealed {
    /// The offset as an index, or `None` when it is negative or does not
    /// fit in `usize`.
    fn to_index(self) -> Option<usize>;
    /// The offset of an index, or `None` when it does not fit.
    #[doc(hidden)]
    fn from_index(index: usize) -> Option<Self>;
    /// The offset of an index known to fit: a plain conversion.
    #[doc(hidden)]
    fn from_index_wrapping(index: usize) -> Self;
    /// The offset as an index once [`to_index`](Offset::to_index) has said
    /// it is one: a plain conversion, with no test.
    #[doc(hidden)]
    fn index(self) -> usize;
    /// The offsets as `i32`s, when they are: for the gathered row-start
    /// test.
    #[doc(hidden)]
    fn as_i32s(offsets: &[Self]) -> Option<&[i32]> {
        let _ = offsets;
        None
    }
}

mod sealed {
    pub trait Sealed {}
}

macro_rules! offset {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl Offset for $t {
            #[inline]
            fn to_index(self) -> Option<usize> {
                usize::try_from(self).ok()
            }
            #[inline]
            fn from_index(index: usize) -> Option<Self> {
                <$t>::try_from(index).ok()
            }
            #[inline(always)]
            fn from_index_wrapping(index: usize) -> Self {
                index as $t
            }
            #[inline(always)]
            fn index(self) -> usize {
                // In range wherever it is used: the layout test
                // (`Offsets::new`, or each batch's in
                // `Offsets::validated`) found the offsets in order from a
                // first at least 0, in a type no wider than `usize`.
                self as usize
            }
        }
    )*};
}
offset!(i64, u32, u64, usize);

impl sealed::Sealed for i32 {}
impl Offset for i32 {
    #[inline]
    fn to_index(self) -> Option<usize> {
        usize::try_from(self).ok()
    }
    #[inline]
    fn from_index(index: usize) -> Option<i32> {
        i32::try_from(index).ok()
    }
    #[inline(always)]
    fn from_index_wrapping(index: usize) -> i32 {
        index as i32
    }
    #[inline(always)]
    fn index(self) -> usize {
        self as usize
    }
    #[inline]
    fn as_i32s(offsets: &[i32]) -> Option<&[i32]> {
        Some(offsets)
    }
}
