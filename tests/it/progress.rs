//! `--progress` (issue 41): long work says what it is doing on stderr,
//! never on stdout, and says nothing with `--progress never`.

use super::common::satsudoku;

/// The progress lines of a run's stderr (written in place with `\r`).
fn lines(stderr: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(stderr).split(['\r', '\n']).map(|l| l.trim_start_matches("\x1b[K").to_owned()).collect()
}

/// Counting a blank 10x10 by bands and 8x8's essentially different grids
/// by Burnside's lemma, both stopped at 2 s: stderr shows the phase, stdout
/// only the (non-)answer.
#[test]
fn long_methods_show_their_phase() {
    for (input, extra, phase) in [
        ("size 10\nbox 2x5\n", vec![], "satsudoku: bands: "),
        ("size 8\nbox 2x4\n", vec!["--up-to-symmetry"], "satsudoku: Burnside: "),
    ] {
        let out = satsudoku()
            .args(["count", "--progress", "always", "--timeout", "2"])
            .args(&extra)
            .arg("-")
            .write_stdin(input)
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout), "solutions_unknown.\n");
        assert!(lines(&out.stderr).iter().any(|l| l.starts_with(phase)), "{}", String::from_utf8_lossy(&out.stderr));
        let quiet = satsudoku()
            .args(["count", "--progress", "never", "--timeout", "1"])
            .args(&extra)
            .arg("-")
            .write_stdin(input)
            .output()
            .unwrap();
        assert!(!String::from_utf8_lossy(&quiet.stderr).contains('\r'));
    }
}

/// A batch that takes more than a second counts its puzzles done on
/// stderr (`rate` here, on Easter Monster, which needs depth-2 probing;
/// `unique`, `candidates` and `minimal` the same way).
#[test]
fn a_long_batch_counts_its_puzzles() {
    let easter_monster = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1\n";
    let out = satsudoku()
        .args(["rate", "-j", "1", "--progress", "always", "-"])
        .write_stdin(easter_monster.repeat(4))
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 4);
    let shown = lines(&out.stderr);
    assert!(shown.iter().any(|l| l.contains(" of 4 puzzles answered")), "{shown:?}");
}
