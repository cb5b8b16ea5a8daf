//! Headless Chromium for the print tests: an HTML file printed to PDF as a browser prints it,
//! then read back with poppler-utils (`pdfinfo` for the pages, `pdftotext` for each page's
//! text). Chromium, pdfinfo or pdftotext missing, or a print that fails, fails the test with a
//! message saying so: a print test never passes without printing (`tests/run` installs
//! `chromium` and `poppler-utils` when absent).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long one print may take before the test fails (a loaded machine is slow).
const PRINT_SECS: u64 = 120;

/// The Chromium to run: `CROSSBOARD_CHROMIUM` if set, else `chromium` on the PATH.
fn chromium() -> String {
    std::env::var("CROSSBOARD_CHROMIUM").unwrap_or_else(|_| "chromium".into())
}

/// `tool --version` (or `-v`) runs, or the test fails saying what to install.
fn require(tool: &str, flag: &str, package: &str) {
    let ran = Command::new(tool)
        .arg(flag)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    assert!(
        ran.is_ok(),
        "{tool} cannot be run: the print tests need it (tests/run installs {package}; \
         apt-get install {package})"
    );
}

/// `html` printed to a PDF beside it (`NAME.pdf`), by headless Chromium with a fresh profile,
/// no header or footer, the page size the page's CSS asks for.
pub fn print_to_pdf(html: &Path) -> PathBuf {
    let browser = chromium();
    require(&browser, "--version", "chromium");
    let pdf = html.with_extension("pdf");
    let profile = tempfile::tempdir().unwrap();
    let mut child = Command::new(&browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-pdf-header-footer",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("--print-to-pdf={}", pdf.display()))
        .arg(format!("file://{}", html.canonicalize().unwrap().display()))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{browser} did not start: {e}"));
    let deadline = Instant::now() + Duration::from_secs(PRINT_SECS);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!(
                "{browser} did not print {} in {PRINT_SECS} s",
                html.display()
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let err = std::io::read_to_string(child.stderr.take().unwrap()).unwrap_or_default();
    assert!(status.success(), "{browser} failed ({status}):\n{err}");
    assert!(pdf.is_file(), "{browser} wrote no PDF:\n{err}");
    pdf
}

/// `pdfinfo`'s field `name` (`Pages`, `Page size`).
pub fn pdf_info(pdf: &Path, name: &str) -> String {
    require("pdfinfo", "-v", "poppler-utils");
    let out = Command::new("pdfinfo").arg(pdf).output().unwrap();
    assert!(out.status.success(), "pdfinfo {}", pdf.display());
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{name}:")))
        .map(|v| v.trim().to_string())
        .unwrap_or_else(|| panic!("pdfinfo says no {name}:\n{text}"))
}

/// The number of pages of `pdf`.
pub fn pages(pdf: &Path) -> usize {
    pdf_info(pdf, "Pages").parse().unwrap()
}

/// The text of each page of `pdf`, laid out as printed (`pdftotext -layout`), first page first.
pub fn page_texts(pdf: &Path) -> Vec<String> {
    require("pdftotext", "-v", "poppler-utils");
    (1..=pages(pdf))
        .map(|p| {
            let out = Command::new("pdftotext")
                .args(["-layout", "-f", &p.to_string(), "-l", &p.to_string()])
                .arg(pdf)
                .arg("-")
                .output()
                .unwrap();
            assert!(out.status.success(), "pdftotext page {p}");
            String::from_utf8_lossy(&out.stdout).into_owned()
        })
        .collect()
}
