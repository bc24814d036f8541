#!/usr/bin/perl
# SPDX-License-Identifier: MIT
# The half of the ABI check that abi-compliance-checker leaves out: the public enums
# and typedefs of crowdspec.h that no exported signature names. Parameter ids, method
# ids, status codes and fit notes all cross the ABI as int32_t, so the checker, which
# follows types from the symbols, never compares their values; a renumbered
# CS_METHOD_DS would pass it. Run by tests/check_abi.cmake after the checker.
#
#   perl abi_types.pl OLD.dump NEW.dump
#
# Both files are abi-dumper dumps made with -public-headers and -all-types. Checks,
# for every enum and typedef that OLD declares in a public header:
#   - NEW still declares it, with the same size;
#   - enums: every enumerator of OLD is in NEW with the same value (enums are
#     append-only; a removed or renamed enumerator, or a changed value, is an error);
#   - typedefs: the type it names is unchanged (by name).
# Exit status 0 when compatible, 1 with one line per problem otherwise, 2 on bad input.
use strict;
use warnings;
use File::Spec;

sub load_dump {
    my ($path) = @_;
    our $VAR1;
    local $VAR1;
    # An abi-dumper dump is a Data::Dumper text: Perl that rebuilds the hash.
    my $dump = do File::Spec->rel2abs($path);
    die "abi_types.pl: cannot read $path: " . ($@ || $! || "not an abi-dumper dump") . "\n"
        unless ref $dump eq 'HASH' && ref $dump->{TypeInfo} eq 'HASH';
    return $dump;
}

# Public enums and typedefs by name: { name => type record }.
sub public_types {
    my ($dump) = @_;
    my %types;
    my $info = $dump->{TypeInfo};
    for my $id (keys %$info) {
        my $t = $info->{$id};
        next unless ($t->{Type} // '') =~ /^(Enum|Typedef)$/;
        next if $t->{PrivateABI};
        next unless defined $t->{Header};
        next if ($t->{Name} // '') =~ /anon-/;
        $types{ $t->{Name} } = $t;
    }
    return \%types;
}

sub base_name {
    my ($dump, $t) = @_;
    my $base = $t->{BaseType};
    return '(none)' unless defined $base && exists $dump->{TypeInfo}{$base};
    return $dump->{TypeInfo}{$base}{Name};
}

@ARGV == 2 or do { print STDERR "usage: perl abi_types.pl OLD.dump NEW.dump\n"; exit 2 };
my ($old, $new) = eval { (load_dump($ARGV[0]), load_dump($ARGV[1])) };
if ($@) { print STDERR $@; exit 2 }
my $old_types = public_types($old);
my $new_types = public_types($new);
if (!%$old_types) {
    print STDERR "abi_types.pl: $ARGV[0] has no public enum or typedef (dumped without -public-headers/-all-types?)\n";
    exit 2;
}

my @problems;
my ($n_enums, $n_values, $n_typedefs) = (0, 0, 0);
for my $name (sort keys %$old_types) {
    my $o = $old_types->{$name};
    my $n = $new_types->{$name};
    if (!$n) {
        push @problems, "$o->{Type} '$name' ($o->{Header}) was removed";
        next;
    }
    if (($o->{Size} // '') ne ($n->{Size} // '')) {
        push @problems, "size of '$name' changed from $o->{Size} to $n->{Size} bytes";
    }
    if ($o->{Type} eq 'Enum') {
        ++$n_enums;
        my %new_value = map { $_->{name} => $_->{value} } values %{ $n->{Memb} || {} };
        for my $m (sort { $a->{name} cmp $b->{name} } values %{ $o->{Memb} || {} }) {
            ++$n_values;
            if (!exists $new_value{ $m->{name} }) {
                push @problems, "enumerator $m->{name} (= $m->{value}) of '$name' was removed or renamed";
            } elsif ($new_value{ $m->{name} } ne $m->{value}) {
                push @problems, "value of $m->{name} in '$name' changed from $m->{value} to $new_value{ $m->{name} }";
            }
        }
    } else {
        ++$n_typedefs;
        my ($ob, $nb) = (base_name($old, $o), base_name($new, $n));
        push @problems, "typedef '$name' changed from '$ob' to '$nb'" if $ob ne $nb;
    }
}
my @added = grep { !exists $old_types->{$_} } sort keys %$new_types;

if (@problems) {
    print "incompatible changes of public types ($ARGV[0] -> $ARGV[1]):\n";
    print "  $_\n" for @problems;
    exit 1;
}
print "public types: $n_enums enums ($n_values values) and $n_typedefs typedefs unchanged";
print @added ? "; added: @added\n" : "\n";
exit 0;
