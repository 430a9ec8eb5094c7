// Package excerpt shortens input quoted in messages: an error about a
// 100 MB line quotes a few dozen bytes of it and says how long it was.
package excerpt

import (
	"fmt"
	"unicode/utf8"
)

// Max is the most bytes of input a message quotes.
const Max = 60

// Of returns s, or its first Max bytes (cut at a character boundary) and
// its length when it is longer.
func Of(s string) string {
	if len(s) <= Max {
		return s
	}
	cut := Max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s... (%d bytes)", s[:cut], len(s))
}

// Quote is Of in double quotes, with Go escapes, as %q prints.
func Quote(s string) string {
	if len(s) <= Max {
		return fmt.Sprintf("%q", s)
	}
	cut := Max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%q... (%d bytes)", s[:cut], len(s))
}

// MaxMessage is the most bytes a whole message may have; Message cuts a
// longer one (a message that names many things, or a long name).
const MaxMessage = 400

// Message returns msg cut to MaxMessage bytes.
func Message(msg string) string {
	if len(msg) <= MaxMessage {
		return msg
	}
	cut := MaxMessage
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return fmt.Sprintf("%s... (message cut at %d of %d bytes)", msg[:cut], cut, len(msg))
}
