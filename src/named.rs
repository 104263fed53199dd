//! Option enums with names: one list of variants, each with the name the
//! command line and the encoding specs use and a line of help, written once
//! in a [`crate::named_enum!`] declaration. The library needs no CLI crate for
//! them; the binary builds its parsers from [`Named::VARIANTS`].

use std::fmt;

/// An enum whose variants have names.
pub trait Named: Copy + Sized + 'static {
    /// Every variant, in declaration order.
    const VARIANTS: &'static [Self];
    /// The variant's name, as typed on the command line.
    fn name(self) -> &'static str;
    /// One line saying what the variant is (its doc comment).
    fn help(self) -> &'static str;

    /// The variant called `name`, if any.
    fn from_name(name: &str) -> Option<Self> {
        Self::VARIANTS.iter().copied().find(|v| v.name() == name)
    }

    /// The variants' names, as `a, b, c`, for error messages.
    fn names() -> String {
        itertools::join(Self::VARIANTS.iter().map(|v| v.name()), ", ")
    }
}

/// Why a name names no variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownName {
    /// The name given.
    pub found: String,
    /// The names there are.
    pub expected: String,
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected one of {}, found {:?}", self.expected, self.found)
    }
}

impl std::error::Error for UnknownName {}

/// Declares an enum of named variants: `Variant = "name"`, each with a doc
/// comment that becomes its help; `enum Name = Variant { ... }` makes
/// `Variant` the default. Derives `Clone, Copy, Debug, PartialEq, Eq,
/// Hash`, and implements [`Named`], `Display` (the name) and `FromStr`.
#[macro_export]
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident $(= $default:ident)? {
            $( $(#[doc = $doc:literal])+ $variant:ident = $text:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $name {
            $( $(#[doc = $doc])+ $variant, )+
        }

        $(
            impl Default for $name {
                fn default() -> $name {
                    $name::$default
                }
            }
        )?

        impl $crate::named::Named for $name {
            const VARIANTS: &'static [$name] = &[$($name::$variant),+];

            fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }

            fn help(self) -> &'static str {
                match self {
                    $($name::$variant => concat!($($doc),+).trim_ascii(),)+
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str($crate::named::Named::name(*self))
            }
        }

        impl std::str::FromStr for $name {
            type Err = $crate::named::UnknownName;

            fn from_str(text: &str) -> Result<$name, $crate::named::UnknownName> {
                <$name as $crate::named::Named>::from_name(text).ok_or_else(|| $crate::named::UnknownName {
                    found: text.to_owned(),
                    expected: <$name as $crate::named::Named>::names(),
                })
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::Named;

    named_enum! {
        /// A test enum.
        enum Fruit = Banana {
            /// A red one.
            Apple = "apple",
            /// A long
            /// yellow one.
            Banana = "banana-split",
        }
    }

    #[test]
    fn names_help_and_parsing_come_from_one_declaration() {
        assert_eq!(Fruit::VARIANTS, &[Fruit::Apple, Fruit::Banana]);
        assert_eq!(Fruit::Banana.to_string(), "banana-split");
        assert_eq!("banana-split".parse::<Fruit>(), Ok(Fruit::Banana));
        assert_eq!(Fruit::Apple.help(), "A red one.");
        assert_eq!(Fruit::default(), Fruit::Banana);
        assert_eq!(Fruit::Banana.help(), "A long yellow one.");
        let err = "pear".parse::<Fruit>().unwrap_err().to_string();
        assert_eq!(err, "expected one of apple, banana-split, found \"pear\"");
    }
}
