//! The examples of README.md and docs/commands.md, run as a newcomer would
//! from a fresh clone (issue 41): every `$ ...` line of a `console` block
//! is run by bash in a scratch directory holding the repository's samples,
//! and what it prints (stdout; stderr for an example that shows an
//! `error:`) must match the lines shown under it. A line `...`
//! stands for any lines, `...` inside a line for any text, and a JSON
//! record's `"seconds"` for any time. The few files the examples only name
//! (a layout of one's own, an empty 6x6) are made here; a command whose
//! program is not installed (minisat, GNU parallel) is skipped.

use std::path::Path;
use std::process::Command;

/// The `console` blocks of `text`: each command with the lines shown under it.
fn examples(text: &str) -> Vec<(String, Vec<String>)> {
    let mut found = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        if line.starts_with("```") {
            inside = line == "```console";
            continue;
        }
        if !inside {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            found.push((command.to_owned(), Vec::new()));
        } else if let Some((_, shown)) = found.last_mut() {
            shown.push(line.to_owned());
        }
    }
    found
}

/// Whether `line` matches `pattern`, where `...` stands for any text.
fn matches_line(pattern: &str, line: &str) -> bool {
    let parts: Vec<&str> = pattern.split("...").collect();
    if parts.len() == 1 {
        return pattern.trim_end() == line.trim_end();
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !line.starts_with(first) || !line.trim_end().ends_with(last.trim_end()) {
        return false;
    }
    let mut at = first.len();
    for part in &parts[1..parts.len() - 1] {
        match line[at..].find(part) {
            Some(i) => at += i + part.len(),
            None => return false,
        }
    }
    at <= line.trim_end().len() - last.trim_end().len()
}

/// Whether `lines` match `shown`, where a line `...` stands for any lines.
fn matches(shown: &[String], lines: &[String]) -> bool {
    match shown.split_first() {
        None => lines.is_empty(),
        Some((first, rest)) if first.trim() == "..." => (0..=lines.len()).any(|k| matches(rest, &lines[k..])),
        Some((first, rest)) => {
            lines.split_first().is_some_and(|(line, more)| matches_line(first, line) && matches(rest, more))
        }
    }
}

/// `"seconds":0.0011` as `"seconds":...`, so that times match.
fn untimed(line: &str) -> String {
    match line.find("\"seconds\":") {
        Some(i) => {
            let rest = &line[i + 10..];
            let end = rest.find([',', '}']).unwrap_or(rest.len());
            format!("{}\"seconds\":...{}", &line[..i], &rest[end..])
        }
        None => line.to_owned(),
    }
}

#[test]
fn the_readme_and_command_examples_print_what_they_show() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    std::os::unix::fs::symlink(root.join("cnf-samples"), dir.join("cnf-samples")).unwrap();
    std::fs::write(dir.join("my-layout.puzzle"), "size 6\nkiller r1c1 r1c2 = 3\n").unwrap();
    std::fs::write(dir.join("empty-6x6.txt"), ".".repeat(36) + "\n").unwrap();
    std::fs::write(dir.join("blank-12x12.takuzu"), format!("{}\n", ".".repeat(12)).repeat(12)).unwrap();
    let binary = assert_cmd::cargo::cargo_bin("satsudoku");
    let path = format!("{}:{}", binary.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default());
    let (mut checked, mut wrong) = (0, Vec::new());
    for doc in ["README.md", "docs/commands.md"] {
        let text = std::fs::read_to_string(root.join(doc)).unwrap();
        for (command, shown) in examples(&text) {
            let command = command.replace("cargo run --release -- ", "satsudoku ");
            let programs = ["minisat", "parallel"];
            if programs.iter().any(|p| command.split_whitespace().any(|w| w == *p))
                && programs.iter().any(|p| which(p, &path).is_none())
            {
                eprintln!("SKIPPED {doc}: {command} (needs a program not installed)");
                continue;
            }
            let out = Command::new("bash").args(["-c", &command]).current_dir(dir).env("PATH", &path).output().unwrap();
            // What an example shows is stdout, or stderr when it shows an error.
            let stream = if shown.first().is_some_and(|l| l.starts_with("error:")) { &out.stderr } else { &out.stdout };
            let printed: Vec<String> = String::from_utf8_lossy(stream).lines().map(untimed).collect();
            let shown: Vec<String> = shown.iter().map(|l| untimed(l)).collect();
            if !shown.is_empty() && !matches(&shown, &printed) {
                wrong.push(format!(
                    "{doc}: `{command}` shows\n{}\nbut prints\n{}",
                    shown.join("\n"),
                    printed.join("\n")
                ));
            }
            checked += usize::from(!shown.is_empty());
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
    assert!(checked >= 10, "only {checked} examples with output");
}

/// `program`'s path on `path`, if it is there.
fn which(program: &str, path: &str) -> Option<std::path::PathBuf> {
    std::env::split_paths(path).map(|d| d.join(program)).find(|p| p.is_file())
}

#[test]
fn the_matcher_reads_ellipses() {
    let shown = |lines: &[&str]| lines.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    assert!(matches(&shown(&["a", "...", "d"]), &shown(&["a", "b", "c", "d"])));
    assert!(matches(&shown(&["a", "..."]), &shown(&["a"])));
    assert!(!matches(&shown(&["a", "d"]), &shown(&["a", "b", "d"])));
    assert!(matches_line("2\tredundant\tr1c1=5,...,r9c9=9\t.3..", "2\tredundant\tr1c1=5,r2c2=1,r9c9=9\t.3.."));
    assert!(!matches_line("x...y", "xz"));
}
