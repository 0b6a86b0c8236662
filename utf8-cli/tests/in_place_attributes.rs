//! `fix --in-place` gives the new file the old one's extended attributes,
//! as `sed -i` does: a `user.` attribute, and a POSIX ACL (an attribute
//! too, `system.posix_acl_access`). Linux only, as the copying is.
#![cfg(target_os = "linux")]

mod common;

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt as _;
use std::path::Path;

use common::{arg, scratch, utf8_within_ten_seconds, write};

fn c_path(path: &Path) -> CString {
    CString::new(path.as_os_str().as_bytes()).unwrap()
}

fn set_attribute(path: &Path, name: &str, value: &[u8]) -> std::io::Result<()> {
    let (path, name) = (c_path(path), CString::new(name).unwrap());
    // SAFETY: both strings are NUL-terminated and `value` is `value.len()`
    // bytes, all alive for the call, which only reads them.
    let set = unsafe {
        libc::setxattr(
            path.as_ptr(),
            name.as_ptr(),
            value.as_ptr().cast(),
            value.len(),
            0,
        )
    };
    if set == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

fn attribute(path: &Path, name: &str) -> Option<Vec<u8>> {
    let (path, name) = (c_path(path), CString::new(name).unwrap());
    let mut value = vec![0u8; 4096];
    // SAFETY: both strings are NUL-terminated and outlive the call; the
    // kernel writes at most `value.len()` bytes into `value`.
    let len = unsafe {
        libc::getxattr(
            path.as_ptr(),
            name.as_ptr(),
            value.as_mut_ptr().cast(),
            value.len(),
        )
    };
    value.truncate(usize::try_from(len).ok()?);
    Some(value)
}

/// Sets `name` on `path`, or says why the test cannot run here: only a file
/// system that refuses such attributes excuses it.
fn set_or_skip(path: &Path, name: &str, value: &[u8]) -> bool {
    match set_attribute(path, name, value) {
        Ok(()) => true,
        Err(e) if e.raw_os_error() == Some(libc::ENOTSUP) => {
            println!("skipped: the temporary directory's file system refuses {name}: {e}");
            false
        }
        Err(e) => panic!("set {name} on {}: {e}", path.display()),
    }
}

fn fix_in_place(path: &Path) {
    let output = utf8_within_ten_seconds(&["fix", "--in-place", arg(path)]);
    common::stdout(&output);
    assert_eq!(std::fs::read(path).unwrap(), "caf\u{FFFD}\n".as_bytes());
}

#[test]
fn in_place_keeps_the_files_user_attributes() {
    let dir = scratch();
    let input = write(dir.path(), "notes.txt", b"caf\xE9\n");
    if !set_or_skip(&input, "user.origin", b"scanned 1998") {
        return;
    }
    fix_in_place(&input);
    assert_eq!(
        attribute(&input, "user.origin").as_deref(),
        Some(&b"scanned 1998"[..])
    );
}

#[test]
fn in_place_keeps_the_files_access_control_list() {
    let dir = scratch();
    let input = write(dir.path(), "notes.txt", b"caf\xE9\n");
    // The ACL `user::rw-, user:4242:r--, group::r--, mask::r--, other::---`
    // as Linux stores it: version 2, then (tag, permissions, id) entries.
    let mut acl = 2u32.to_le_bytes().to_vec();
    for (tag, permissions, id) in [
        (0x01u16, 6u16, u32::MAX),
        (0x02, 4, 4242),
        (0x04, 4, u32::MAX),
        (0x10, 4, u32::MAX),
        (0x20, 0, u32::MAX),
    ] {
        acl.extend(tag.to_le_bytes());
        acl.extend(permissions.to_le_bytes());
        acl.extend(id.to_le_bytes());
    }
    if !set_or_skip(&input, "system.posix_acl_access", &acl) {
        return;
    }
    let before = attribute(&input, "system.posix_acl_access");
    assert!(before.is_some(), "the ACL was set");
    fix_in_place(&input);
    assert_eq!(attribute(&input, "system.posix_acl_access"), before);
}
