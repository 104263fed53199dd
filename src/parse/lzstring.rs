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

/// The text compressed in `input` (base64, `=` padding allowed).
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
    let mut dictionary: Vec<Vec<u16>> = vec![Vec::new(); 3];
    let (mut enlarge_in, mut num_bits) = (4u32, 3u32);
    let first = match bits.read(2)? {
        0 => bits.read(8)? as u16,
        1 => bits.read(16)? as u16,
        _ => return Ok(String::new()),
    };
    dictionary.push(vec![first]);
    let mut w = vec![first];
    let mut result = vec![first];
    loop {
        let mut code = bits.read(num_bits)? as usize;
        match code {
            0 | 1 => {
                let unit = bits.read(if code == 0 { 8 } else { 16 })? as u16;
                dictionary.push(vec![unit]);
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
        let entry = if code < dictionary.len() && code > 2 {
            dictionary[code].clone()
        } else if code == dictionary.len() {
            let mut e = w.clone();
            e.push(w[0]);
            e
        } else {
            return Err(LzError::Corrupt);
        };
        result.extend_from_slice(&entry);
        let mut next = w;
        next.push(entry[0]);
        dictionary.push(next);
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
