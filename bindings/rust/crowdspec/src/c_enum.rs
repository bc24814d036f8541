// SPDX-License-Identifier: MIT
//! `c_enum!`: a Rust enum whose variants stand for the values of a C enum of the
//! header, with the conversions both ways written once.

/// Declares `pub enum $name` (deriving `Debug, Clone, Copy, PartialEq, Eq, Hash`) with
/// one variant per C value, `Variant = sys::CS_...,`, and after `..` optionally one
/// variant `Other(i32)` that keeps a value this crate does not know.
///
/// The `fn` line that follows names the public method giving a variant's C value
/// (`Other`'s own value); the private `from_known(value) -> Option<Self>` gives the
/// variant of a value the list names (unused by some enums, hence `allow(dead_code)`).
macro_rules! c_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $($(#[$variant_meta:meta])* $variant:ident = $value:path,)+
            $(.. $(#[$other_meta:meta])* $other:ident(i32),)?
        }
        $(#[$fn_meta:meta])*
        fn $to_value:ident;
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$variant_meta])* $variant,)+
            $($(#[$other_meta])* $other(i32),)?
        }

        impl $name {
            $(#[$fn_meta])*
            pub fn $to_value(self) -> i32 {
                match self {
                    $($name::$variant => $value,)+
                    $($name::$other(value) => value,)?
                }
            }

            #[allow(dead_code)]
            fn from_known(value: i32) -> Option<$name> {
                match value {
                    $($value => Some($name::$variant),)+
                    _ => None,
                }
            }
        }
    };
}
