//! A file's extended attributes (its POSIX ACL, its SELinux label, `user.`
//! attributes) given to the file that replaces it, as `sed -i` keeps them:
//! `fix --in-place` writes a new file, which would otherwise have none but
//! what its directory gives every new file.
//!
//! Linux only: `libc`'s `listxattr` family is the only interface, and the
//! other systems' attributes are named and stored differently.

use std::ffi::{CStr, CString};
use std::fs::File;
use std::io;
use std::os::fd::AsRawFd as _;
use std::os::unix::ffi::OsStrExt as _;
use std::path::Path;

/// Gives `to` the extended attributes of the file at `from`, and takes
/// away those it was given at its creation that `from` lacks (a directory's
/// default ACL). An attribute the file system cannot hold, or that the user
/// may not set (`trusted.`, `security.capability` without privilege), is
/// left behind, as `sed -i` leaves it: the user may still fix the file.
///
/// The error comes with the step that failed, in words, to go before it
/// in a message: which attribute could not be copied.
pub fn copy(from: &Path, to: &File) -> Result<(), (String, io::Error)> {
    let listing = || "cannot list the file's extended attributes: ".to_owned();
    let path = CString::new(from.as_os_str().as_bytes()).map_err(|e| (listing(), e.into()))?;
    let wanted = match names(|list| list_of_path(&path, list)) {
        Ok(names) => names,
        Err(e) if not_kept(&e) => return Ok(()),
        Err(e) => return Err((listing(), e)),
    };
    let copying = |name: &CStr| {
        format!(
            "cannot give the new contents the file's extended attribute {}: ",
            name.to_string_lossy()
        )
    };
    for name in &wanted {
        let value = match value(&path, name) {
            Ok(value) => value,
            // Taken away since it was listed: nothing to copy.
            Err(e) if e.raw_os_error() == Some(libc::ENODATA) || not_kept(&e) => continue,
            Err(e) => return Err((copying(name), e)),
        };
        match set(to, name, &value) {
            Err(e) if !not_kept(&e) => return Err((copying(name), e)),
            _ => {}
        }
    }
    // What the new file was given and the old one did not have: best
    // effort, since the old file's own attributes are already there.
    if let Ok(given) = names(|list| list_of_file(to, list)) {
        for name in given.iter().filter(|name| !wanted.contains(name)) {
            // SAFETY: `name` is a NUL-terminated string that outlives the call.
            let _ = unsafe { libc::fremovexattr(to.as_raw_fd(), name.as_ptr()) };
        }
    }
    Ok(())
}

/// Whether an attribute's failure is one `sed -i` passes over: the file
/// system holds no such attributes, or the user may not set this one.
fn not_kept(e: &io::Error) -> bool {
    matches!(
        e.raw_os_error(),
        Some(libc::ENOTSUP | libc::EPERM | libc::EACCES)
    )
}

/// The attribute names a `listxattr` call gives, asked first for the
/// list's size and then again while the list grows between the calls.
fn names(list: impl Fn(&mut [u8]) -> isize) -> io::Result<Vec<CString>> {
    let bytes = sized(list)?;
    Ok(bytes
        .split(|&byte| byte == 0)
        .filter(|name| !name.is_empty())
        .map(|name| CString::new(name).expect("split at every NUL"))
        .collect())
}

fn value(path: &CStr, name: &CStr) -> io::Result<Vec<u8>> {
    sized(|value| {
        // SAFETY: both strings are NUL-terminated and outlive the call; the
        // kernel writes at most `value.len()` bytes into `value`.
        unsafe {
            libc::getxattr(
                path.as_ptr(),
                name.as_ptr(),
                value.as_mut_ptr().cast(),
                value.len(),
            )
        }
    })
}

fn set(file: &File, name: &CStr, value: &[u8]) -> io::Result<()> {
    // SAFETY: `name` is NUL-terminated and `value` is `value.len()` bytes,
    // both alive for the call, which only reads them.
    let set = unsafe {
        libc::fsetxattr(
            file.as_raw_fd(),
            name.as_ptr(),
            value.as_ptr().cast(),
            value.len(),
            0,
        )
    };
    if set == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

fn list_of_path(path: &CStr, list: &mut [u8]) -> isize {
    // SAFETY: `path` is NUL-terminated and outlives the call; the kernel
    // writes at most `list.len()` bytes into `list`.
    unsafe { libc::listxattr(path.as_ptr(), list.as_mut_ptr().cast(), list.len()) }
}

fn list_of_file(file: &File, list: &mut [u8]) -> isize {
    // SAFETY: the kernel writes at most `list.len()` bytes into `list`.
    unsafe { libc::flistxattr(file.as_raw_fd(), list.as_mut_ptr().cast(), list.len()) }
}

/// The bytes a call of the `getxattr` kind gives: asked with an empty
/// buffer, it says how many bytes there are; asked again with that many,
/// it fails with `ERANGE` if there are more by then, and is asked again.
fn sized(call: impl Fn(&mut [u8]) -> isize) -> io::Result<Vec<u8>> {
    loop {
        let len = call(&mut []);
        let len = usize::try_from(len).map_err(|_| io::Error::last_os_error())?;
        let mut bytes = vec![0; len];
        match usize::try_from(call(&mut bytes)) {
            Ok(written) => {
                bytes.truncate(written);
                return Ok(bytes);
            }
            Err(_) => {
                let e = io::Error::last_os_error();
                if e.raw_os_error() != Some(libc::ERANGE) {
                    return Err(e);
                }
            }
        }
    }
}
