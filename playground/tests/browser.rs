//! The playground page in a real browser: headless Chromium, driven over the
//! DevTools protocol, opens `docs/playground/index.html` from disk (as a
//! learner opens it from a clone), and the test checks what the page shows
//! after it loads, after typing, and after a click.
//!
//! Chromium is found as `$UTF8_CHROMIUM`, or `chromium`, `chromium-browser`
//! or `google-chrome` on the PATH. Without one the test says so and passes,
//! unless `UTF8_BROWSER_TEST=required` (which `.ci/run` sets after installing
//! Debian's `chromium`), where a missing browser fails it.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};

/// How long any one wait for the page may take before the test fails.
const PATIENCE: Duration = Duration::from_secs(60);

#[test]
fn a_learner_derives_types_a_mistake_steps_and_clicks() {
    let Some(mut browser) = Browser::launch() else {
        return;
    };
    let page = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/playground/index.html");
    let page = page
        .canonicalize()
        .expect("docs/playground/index.html exists");
    browser.open(&format!("file://{}", page.display()));

    // RFC 3629 is preloaded and derived.
    browser.wait_until("document.body.dataset.state === 'derived'");
    assert_eq!(browser.text("#count-minimal"), "9");
    assert_eq!(browser.text("#count-classes"), "12");
    assert_eq!(browser.text("#count-nfa"), "75");
    assert_eq!(
        browser.eval("document.querySelector('#rulesets [aria-pressed=true]').textContent"),
        "rfc3629"
    );
    assert_eq!(
        browser.eval("document.querySelectorAll('#stage-picture g.state').length"),
        9,
        "the minimal DFA is drawn, the dead state included"
    );
    assert_eq!(
        browser.eval(
            "[...document.querySelectorAll('#stage-picture text.name')].map(t => t.textContent).join('|')"
        ),
        "start: between characters|1 tail left (80–BF)|after E0: A0–BF|2 tails left (80–BF)|\
         after ED: 80–9F|after F0: 90–BF|3 tails left (80–BF)|after F4: 80–8F|error",
        "each state is named beside it, as the book's tables name it"
    );

    // Stepping through E0 80 rejects at the second byte.
    browser.type_into("#step-input", "E0 80");
    browser.wait_until("document.querySelectorAll('#step-table tbody tr').length === 2");
    let verdict = browser.text("#step-verdict");
    assert!(
        verdict.starts_with("Rejected at byte 2 (offset 1): no move from state 2"),
        "{verdict}"
    );
    assert_eq!(
        browser.eval("document.querySelector('#step-table tbody tr.rejecting td').textContent"),
        "1"
    );
    // One byte back: the automaton sits in state 2, highlighted in the picture.
    browser.click("#step-back");
    assert_eq!(
        browser.eval("document.querySelector('#step-position').dataset.state"),
        "2"
    );
    assert_eq!(
        browser.eval("document.querySelector('#step-picture g.state.current').id"),
        "s2"
    );
    let position = browser.text("#step-position");
    assert!(
        position.starts_with("after byte 1, E0 (class 6: %xE0): state 2"),
        "{position}"
    );

    // A grammar with a mistake: its line and column are shown.
    let derivations = browser.eval("document.body.dataset.derivations");
    browser.type_into("#start-rule", "text");
    browser.type_into("#abnf", "text = *char\nchar = %x00-7F / bad-rule\n");
    browser.wait_until(&format!(
        "document.body.dataset.state === 'error' && document.body.dataset.derivations !== {derivations}"
    ));
    assert_eq!(browser.text("#error-place"), "line 2, column 18");
    assert_eq!(browser.text("#error-message"), "undefined rule `bad-rule`");
    assert_eq!(
        browser.eval("document.querySelector('#error').hidden"),
        false
    );

    // Fixed, it derives again: ASCII alone, one accepting state and the dead one.
    browser.type_into("#abnf", "text = *char\nchar = %x00-7F\n");
    browser.wait_until("document.body.dataset.state === 'derived'");
    assert_eq!(
        browser.eval("document.querySelector('#error').hidden"),
        true
    );
    assert_eq!(browser.text("#count-minimal"), "2");
    assert_eq!(browser.text("#count-classes"), "2");

    // A click on another ruleset loads and derives it.
    browser.click("#rulesets button[data-ruleset=mutf8]");
    browser.wait_until("document.querySelector('#start-rule').value === 'MUTF8-octets'");
    assert_eq!(browser.eval("document.body.dataset.state"), "derived");
    assert_eq!(
        browser.eval("document.querySelector('#rulesets [aria-pressed=true]').textContent"),
        "mutf8"
    );

    // Back to RFC 3629 for the picture a reader of the test log can look at.
    browser.click("#rulesets button[data-ruleset=rfc3629]");
    browser.type_into("#step-input", "E0 80");
    browser.wait_until("document.querySelector('#count-minimal').textContent === '9'");
    let png = browser.screenshot();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("playground.png");
    std::fs::write(&path, &png).expect("the screenshot can be saved");
    eprintln!("screenshot: {}", path.display());
}

/// Headless Chromium with its DevTools protocol on a pipe (fd 3 in, fd 4 out,
/// mapped from the child's stdin and stdout by `sh`), attached to one page.
struct Browser {
    child: Child,
    commands: ChildStdin,
    messages: Receiver<Value>,
    next_id: u64,
    session: Option<String>,
    log: PathBuf,
    _profile: TempDir,
}

impl Browser {
    fn launch() -> Option<Browser> {
        let required = std::env::var("UTF8_BROWSER_TEST").is_ok_and(|v| v == "required");
        let Some(chromium) = find_chromium() else {
            assert!(
                !required,
                "UTF8_BROWSER_TEST=required, but no Chromium was found \
                 (set UTF8_CHROMIUM or install Debian's chromium)"
            );
            eprintln!("skipped: no Chromium found (set UTF8_CHROMIUM to run the browser test)");
            return None;
        };
        let profile = TempDir::new("profile");
        let log = profile.0.with_extension("log");
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(r#"exec "$0" "$@" 3<&0 4>&1 0</dev/null 1>&2"#)
            .arg(&chromium)
            .args([
                "--headless",
                // The test may run as root (CI containers), where Chromium's
                // sandbox refuses to start; it only loads a local page.
                "--no-sandbox",
                "--disable-gpu",
                // Containers often give /dev/shm a few megabytes; Chromium then crashes.
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--window-size=1400,1800",
                "--remote-debugging-pipe",
            ])
            .arg(format!("--user-data-dir={}", profile.0.display()))
            .arg("about:blank")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).expect("the browser's log can be written"))
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", chromium.display()));
        let commands = child.stdin.take().expect("piped");
        let messages = read_messages(child.stdout.take().expect("piped"));
        let mut browser = Browser {
            child,
            commands,
            messages,
            next_id: 0,
            session: None,
            log,
            _profile: profile,
        };
        let target = browser.command("Target.createTarget", json!({"url": "about:blank"}));
        let target = target["targetId"].clone();
        let attached = browser.command(
            "Target.attachToTarget",
            json!({"targetId": target, "flatten": true}),
        );
        browser.session = Some(attached["sessionId"].as_str().unwrap().to_owned());
        browser.command("Page.enable", json!({}));
        Some(browser)
    }

    /// Sends one protocol command and waits for its answer.
    fn command(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({"id": id, "method": method, "params": params});
        if let Some(session) = &self.session {
            message["sessionId"] = json!(session);
        }
        let mut bytes = serde_json::to_vec(&message).unwrap();
        bytes.push(0);
        if let Err(e) = self.commands.write_all(&bytes) {
            self.fail(&format!("cannot send {method}: {e}"));
        }
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Ok(answer) = self.messages.recv_timeout(left) else {
                self.fail(&format!("no answer to {method}"));
            };
            if answer["id"] == id {
                if let Some(error) = answer.get("error") {
                    self.fail(&format!("{method} failed: {error}"));
                }
                return answer["result"].clone();
            }
        }
    }

    fn open(&mut self, url: &str) {
        let navigated = self.command("Page.navigate", json!({"url": url}));
        if let Some(error) = navigated.get("errorText") {
            self.fail(&format!("cannot open {url}: {error}"));
        }
    }

    /// The value of a JavaScript expression in the page.
    fn eval(&mut self, expression: &str) -> Value {
        let result = self.command(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true}),
        );
        if let Some(exception) = result.get("exceptionDetails") {
            self.fail(&format!("{expression} threw: {exception}"));
        }
        result["result"]["value"].clone()
    }

    fn text(&mut self, selector: &str) -> String {
        let value = self.eval(&format!(
            "document.querySelector({}).textContent",
            json!(selector)
        ));
        value.as_str().unwrap_or_default().trim().to_owned()
    }

    /// Waits for `condition` to hold; one that throws (the document is not
    /// there yet while the page loads) does not hold yet.
    fn wait_until(&mut self, condition: &str) {
        let deadline = Instant::now() + PATIENCE;
        let guarded = format!(
            "(() => {{ try {{ return Boolean({condition}); }} catch {{ return false; }} }})()"
        );
        while self.eval(&guarded) != json!(true) {
            if Instant::now() > deadline {
                let state = self.eval("document.body && document.body.dataset.state");
                self.fail(&format!(
                    "waited in vain for {condition} (page state {state})"
                ));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Replaces a field's text as typing does: focus, select all, insert
    /// (the browser fires the `input` event the page listens to).
    fn type_into(&mut self, selector: &str, text: &str) {
        self.eval(&format!(
            "(e => {{ e.focus(); e.select(); }})(document.querySelector({}))",
            json!(selector)
        ));
        self.command("Input.insertText", json!({"text": text}));
    }

    /// A mouse click at the middle of the element, as a person's.
    fn click(&mut self, selector: &str) {
        let rect = self.eval(&format!(
            "(r => [r.x + r.width / 2, r.y + r.height / 2])\
             ((e => {{ e.scrollIntoView({{block: 'center'}}); return e.getBoundingClientRect(); }})\
             (document.querySelector({})))",
            json!(selector)
        ));
        let (x, y) = (rect[0].clone(), rect[1].clone());
        for kind in ["mousePressed", "mouseReleased"] {
            self.command(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            );
        }
    }

    fn screenshot(&mut self) -> Vec<u8> {
        self.eval("window.scrollTo(0, 0)");
        let shot = self.command("Page.captureScreenshot", json!({"format": "png"}));
        STANDARD
            .decode(shot["data"].as_str().expect("a screenshot"))
            .expect("the screenshot is base64")
    }

    fn fail(&mut self, message: &str) -> ! {
        let _ = self.child.kill();
        let log = std::fs::read_to_string(&self.log).unwrap_or_default();
        let tail: Vec<&str> = log.lines().rev().take(20).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        panic!("{message}\nthe browser's log ends:\n{}", tail.join("\n"));
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads the protocol's NUL-separated JSON messages on a thread of their own,
/// so that a wait can time out.
fn read_messages(stdout: std::process::ChildStdout) -> Receiver<Value> {
    let (send, receive) = channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        let mut message = Vec::new();
        while reader.read_until(0, &mut message).is_ok_and(|n| n > 0) {
            if message.last() == Some(&0) {
                message.pop();
            }
            if let Ok(value) = serde_json::from_slice(&message)
                && send.send(value).is_err()
            {
                return;
            }
            message.clear();
        }
    });
    receive
}

fn find_chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("UTF8_CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH")?;
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |dir| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

/// A directory removed when dropped: the browser's throwaway profile.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("chromium-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("a profile directory");
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
