//! lz-string's `decompressFromBase64`, which f-puzzles share strings and
//! `?load=` links are compressed with: an LZW variant over UTF-16 code
//! units, written 6 bits a character in base64. Written from the
//! algorithm's description (pieroxy's lz-string, MIT), not copied.

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Why a share string does not decompress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LzError {
    /// A character that is not base64, at this 0-based position.
    NotBase64(usize, char),
    /// The data ends or refers to an entry that does not exist.
    Corrupt,
    /// It decompresses to more than [`MAX_UNITS`] code units.
    TooLarge,
}

/// Reads the bit stream most significant bit first, 6 bits a character.
struct Bits<'a> {
    values: &'a [u8],
    index: usize,
    position: u8,
}

impl Bits<'_> {
    fn read(&mut self, count: u32) -> Result<u32, LzError> {
        let mut bits = 0;
        for k in 0..count {
            let value = *self.values.get(self.index).ok_or(LzError::Corrupt)?;
            if value & self.position != 0 {
                bits |= 1 << k;
            }
            self.position >>= 1;
            if self.position == 0 {
                self.position = 32;
                self.index += 1;
            }
        }
        Ok(bits)
    }
}

/// The most UTF-16 code units a share string may decompress to: far above
/// any puzzle's JSON (a 16x16 killer is tens of kilobytes), and small
/// enough that a crafted string (whose output can grow with the square of
/// its length) is refused in milliseconds.
pub const MAX_UNITS: usize = 4 << 20;

/// A dictionary entry: the entry it extends (none for a single unit), its
/// last unit, and its first (so that "w + entry[0]" needs no walk).
#[derive(Clone, Copy)]
struct Entry {
    parent: u32,
    unit: u16,
    first: u16,
}

/// No parent: a single unit.
const ROOT: u32 = u32::MAX;

/// The text compressed in `input` (base64, `=` padding allowed), at most
/// [`MAX_UNITS`] code units of it. The dictionary keeps each entry as the
/// entry it extends plus one unit, so memory and time grow with the output,
/// not with the square of it.
pub fn decompress_base64(input: &str) -> Result<String, LzError> {
    let mut values = Vec::with_capacity(input.len());
    for (i, c) in input.chars().enumerate() {
        match BASE64.iter().position(|&b| char::from(b) == c) {
            Some(v) => values.push(v as u8),
            None if c == '=' => {}
            None => return Err(LzError::NotBase64(i, c)),
        }
    }
    let mut bits = Bits { values: &values, index: 0, position: 32 };
    // Entries 0, 1 and 2 are the codes for "a new unit" and "the end".
    let none = Entry { parent: ROOT, unit: 0, first: 0 };
    let mut dictionary: Vec<Entry> = vec![none; 3];
    let (mut enlarge_in, mut num_bits) = (4u32, 3u32);
    let first = match bits.read(2)? {
        0 => bits.read(8)? as u16,
        1 => bits.read(16)? as u16,
        _ => return Ok(String::new()),
    };
    dictionary.push(Entry { parent: ROOT, unit: first, first });
    let mut w = dictionary.len() - 1;
    let mut result = vec![first];
    let mut spelled = Vec::new();
    loop {
        let mut code = bits.read(num_bits)? as usize;
        match code {
            0 | 1 => {
                let unit = bits.read(if code == 0 { 8 } else { 16 })? as u16;
                dictionary.push(Entry { parent: ROOT, unit, first: unit });
                code = dictionary.len() - 1;
                enlarge_in -= 1;
            }
            2 => return String::from_utf16(&result).map_err(|_| LzError::Corrupt),
            _ => {}
        }
        if enlarge_in == 0 {
            enlarge_in = 1 << num_bits;
            num_bits += 1;
        }
        // The entry: one that exists, or the one being made (w + w[0]).
        let entry = if code > 2 && code < dictionary.len() {
            dictionary.push(Entry { parent: w as u32, unit: dictionary[code].first, first: dictionary[w].first });
            code
        } else if code == dictionary.len() {
            let first = dictionary[w].first;
            dictionary.push(Entry { parent: w as u32, unit: first, first });
            code
        } else {
            return Err(LzError::Corrupt);
        };
        spelled.clear();
        let mut at = entry as u32;
        while at != ROOT {
            let e = dictionary[at as usize];
            spelled.push(e.unit);
            at = e.parent;
        }
        if result.len() + spelled.len() > MAX_UNITS {
            return Err(LzError::TooLarge);
        }
        result.extend(spelled.iter().rev());
        enlarge_in -= 1;
        w = entry;
        if enlarge_in == 0 {
            enlarge_in = 1 << num_bits;
            num_bits += 1;
        }
        if num_bits > 24 {
            return Err(LzError::Corrupt);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Strings compressed by the reference implementation (lz-string's
    /// `compressToBase64`, through PyPI's `lzstring` port).
    #[test]
    fn decompresses_the_reference_output() {
        assert_eq!(decompress_base64("BYUwNmD2A0AECWsCGBbZtDUzkA=="), Ok("hello, i am a 猫".to_owned()));
    }

    /// A longer text, long enough for the code width to grow past 8 bits.
    #[test]
    fn decompresses_a_json_puzzle() {
        let compressed = "N4IgzglgXgpiBcAWANCA5gJwgEwQbT1ADcBDAGwFc54BGVNCImAOwQBcMqBfZYHv3lwC6yQv3GCRYwTL5SBC8UJEgA1hDJkYGAMYk01QiB0xNYfCABKNAMI0QqazYBMIFaUrUQAZhDCuAAQkwSGhYeERkaFAA===";
        let text = r#"{"size":4,"grid":[[{"value":1,"given":true},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"killercage":[{"cells":["R1C1","R1C2"],"value":"3"}]} aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"#;
        assert_eq!(decompress_base64(compressed).as_deref(), Ok(text));
    }

    proptest::proptest! {
        /// Any base64 text decompresses or fails, never panics (share
        /// strings come from users).
        #[test]
        fn never_panics(text in "[A-Za-z0-9+/=]{0,300}") {
            let _ = decompress_base64(&text);
        }
    }

    #[test]
    fn rejects_what_is_not_base64() {
        assert_eq!(decompress_base64("ab*c"), Err(LzError::NotBase64(2, '*')));
        assert_eq!(decompress_base64("A"), Err(LzError::Corrupt));
    }
}

#[cfg(test)]
mod bomb {
    use super::*;

    /// A string that grows its output with the square of its length
    /// (each code the entry just made, one unit longer than the last)
    /// stops at the cap, quickly, instead of allocating gigabytes.
    #[test]
    fn a_crafted_string_stops_at_the_cap() {
        // Codes, most significant bit first in 6-bit characters: "a new
        // 8-bit unit" (0, 2 bits) 'a', then again and again the code of the
        // entry about to be made.
        let mut bits: Vec<bool> = Vec::new();
        let push = |value: u32, count: u32, bits: &mut Vec<bool>| {
            for k in 0..count {
                bits.push(value >> k & 1 == 1);
            }
        };
        push(0, 2, &mut bits);
        push(u32::from(b'a'), 8, &mut bits);
        let (mut size, mut enlarge_in, mut num_bits) = (4u32, 4u32, 3u32);
        for _ in 0..60_000 {
            push(size, num_bits, &mut bits);
            size += 1;
            enlarge_in -= 1;
            if enlarge_in == 0 {
                enlarge_in = 1 << num_bits;
                num_bits += 1;
            }
        }
        let text: String = bits
            .chunks(6)
            .map(|c| {
                let v = c.iter().enumerate().fold(0usize, |v, (i, &b)| v | usize::from(b) << (5 - i));
                char::from(BASE64[v])
            })
            .collect();
        let start = std::time::Instant::now();
        assert_eq!(decompress_base64(&text), Err(LzError::TooLarge));
        assert!(start.elapsed().as_secs() < 5);
    }
}
