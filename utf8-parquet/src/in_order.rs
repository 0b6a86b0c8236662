//! Row groups checked on all cores, each thread taking the next one as
//! soon as it is free, and their results handed over in the file's order
//! on the calling thread.
//!
//! Handing the cores a window of row groups at a time and waiting for the
//! window's slowest left cores idle at every window's end: row groups
//! differ in size and cores in speed, and a file whose row groups do not
//! divide by the thread count leaves some idle in its last window.

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::thread;

/// How many items a thread may run ahead of the one handed over last,
/// per thread: the results waiting for their turn stay bounded, whatever
/// the item count.
const AHEAD_PER_THREAD: usize = 2;

/// What the threads share.
struct Shared<T> {
    /// The next item to begin.
    next: usize,
    /// Items handed over so far (the first not handed over).
    handed_over: usize,
    /// No item past this one is begun: the last item, or the first whose
    /// result ends the run (`ends`) or that panicked.
    last_needed: usize,
    /// Results of finished items, waiting for their turn.
    done: BTreeMap<usize, thread::Result<T>>,
    /// The calling thread wants no more results.
    ended: bool,
}

/// Ends the run when the calling thread leaves it, however it leaves (the
/// last item, an item that ends the run, a break, a panic), so that no
/// thread waits for a turn that will not come.
struct EndOnLeaving<'a, T> {
    shared: &'a Mutex<Shared<T>>,
    changed: &'a Condvar,
}

impl<T> Drop for EndOnLeaving<'_, T> {
    fn drop(&mut self) {
        let mut state = self
            .shared
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        state.ended = true;
        self.changed.notify_all();
    }
}

/// Runs `run` on each item of `0..count` on `threads` threads and hands
/// each result to `hand_over`, in item order, on the calling thread.
/// An item whose result `ends` (an error, the first bad value) is the last
/// handed over, as is one for which `hand_over` breaks; items after it
/// are not begun, and those already running are waited for and dropped.
/// A panic in `run` is raised again on the calling thread when its item's
/// turn comes.
pub fn in_order<T: Send>(
    count: usize,
    threads: usize,
    run: impl Fn(usize) -> T + Sync,
    ends: impl Fn(&T) -> bool + Sync,
    mut hand_over: impl FnMut(usize, T) -> ControlFlow<()>,
) {
    let threads = threads.clamp(1, count.max(1));
    let ahead = threads * AHEAD_PER_THREAD;
    let shared = Mutex::new(Shared {
        next: 0,
        handed_over: 0,
        last_needed: count.saturating_sub(1),
        done: BTreeMap::new(),
        ended: false,
    });
    let changed = Condvar::new();
    let lock = || {
        shared
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    };
    let wait = |guard| wait_on(&changed, guard);
    thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let item = {
                        let mut state = lock();
                        loop {
                            if state.ended || count == 0 || state.next > state.last_needed {
                                return;
                            }
                            if state.next < state.handed_over + ahead {
                                break;
                            }
                            state = wait(state);
                        }
                        state.next += 1;
                        state.next - 1
                    };
                    let result = panic::catch_unwind(AssertUnwindSafe(|| run(item)));
                    let mut state = lock();
                    if result.as_ref().map_or(true, &ends) {
                        state.last_needed = state.last_needed.min(item);
                    }
                    state.done.insert(item, result);
                    changed.notify_all();
                }
            });
        }
        let _end = EndOnLeaving {
            shared: &shared,
            changed: &changed,
        };
        for item in 0..count {
            let result = {
                let mut state = lock();
                loop {
                    if let Some(result) = state.done.remove(&item) {
                        state.handed_over = item + 1;
                        changed.notify_all();
                        break result;
                    }
                    state = wait(state);
                }
            };
            let result = result.unwrap_or_else(|payload| panic::resume_unwind(payload));
            let last = ends(&result);
            if hand_over(item, result).is_break() || last {
                return;
            }
        }
    });
}

/// Waits for `changed`; a thread that panicked holding the lock left the
/// state whole (each change is one assignment or insertion).
fn wait_on<'a, S>(changed: &Condvar, guard: MutexGuard<'a, S>) -> MutexGuard<'a, S> {
    changed
        .wait(guard)
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    fn handed_over(count: usize, threads: usize, ends_at: Option<usize>) -> Vec<usize> {
        let mut seen = Vec::new();
        in_order(
            count,
            threads,
            |item| {
                // Later items finish first, so that order is the scheduler's doing.
                thread::sleep(Duration::from_micros(((count - item) % 7) as u64 * 200));
                item
            },
            |&item| Some(item) == ends_at,
            |item, result| {
                assert_eq!(item, result);
                seen.push(item);
                ControlFlow::Continue(())
            },
        );
        seen
    }

    #[test]
    fn every_item_is_handed_over_once_in_order_whatever_the_thread_count() {
        for count in [0, 1, 2, 7, 16, 33] {
            for threads in [0, 1, 2, 3, 8, 64] {
                assert_eq!(
                    handed_over(count, threads, None),
                    (0..count).collect::<Vec<_>>(),
                    "{count} items on {threads} threads"
                );
            }
        }
    }

    #[test]
    fn an_item_that_ends_the_run_is_the_last_handed_over() {
        for threads in [1, 2, 5] {
            assert_eq!(
                handed_over(40, threads, Some(9)),
                (0..=9).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn no_item_far_past_the_end_is_begun() {
        let begun = AtomicUsize::new(0);
        let mut seen = 0;
        in_order(
            1000,
            4,
            |item| {
                begun.fetch_add(1, Ordering::Relaxed);
                item
            },
            |_| false,
            |item, _| {
                seen += 1;
                if item == 3 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            },
        );
        assert_eq!(seen, 4);
        // At most the items a thread may run ahead of the fourth.
        assert!(begun.load(Ordering::Relaxed) <= 4 + 4 * AHEAD_PER_THREAD);
    }

    #[test]
    fn a_panic_while_handing_over_leaves_no_thread_waiting() {
        for threads in [1, 2, 4] {
            let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
                in_order(
                    100,
                    threads,
                    |item| item,
                    |_| false,
                    |item, _| {
                        assert_ne!(item, 2, "handing over item 2 fails");
                        ControlFlow::Continue(())
                    },
                )
            }));
            assert!(outcome.is_err(), "{threads} threads");
        }
    }

    #[test]
    fn a_panic_is_raised_on_the_calling_thread_in_its_turn() {
        let mut seen = Vec::new();
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
            in_order(
                20,
                3,
                |item| {
                    assert_ne!(item, 5, "item 5 fails");
                    item
                },
                |_| false,
                |item, _| {
                    seen.push(item);
                    ControlFlow::Continue(())
                },
            )
        }));
        assert!(outcome.is_err());
        assert_eq!(seen, (0..5).collect::<Vec<_>>());
    }
}
