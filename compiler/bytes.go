package compiler

import (
	"context"
	"strconv"

	"github.com/protoplay/protoplay/compiler/payload"
)

// Bytes someone was handed: which message type they fit, a schema
// inferred from them, and a stream's messages.

type (
	// Fit says how well a payload parses as one message type (see
	// payload.Fit).
	Fit = payload.Fit
	// InferOptions configures Infer (see payload.InferOptions).
	InferOptions = payload.InferOptions
)

// Limits of RankTypes and Infer (see the payload constants of the same
// names).
const (
	MaxFitResults   = payload.MaxFitResults
	MaxInferSamples = payload.MaxInferSamples
	MaxInferDepth   = payload.MaxInferDepth
)

// RankTypes scores b, a binary payload, as each message type of the
// schema (Messages) and returns the best n (5 when n <= 0, at most
// MaxFitResults), best first (see payload.Schema.RankTypes). A malformed
// payload is an *Error of KindPayload at its byte offset.
func (s *Schema) RankTypes(b []byte, n int) ([]Fit, error) {
	return s.p.RankTypes(b, s.p.Messages(), n)
}

// Infer returns a .proto file (edition 2023) declaring a message type
// that the samples, binary payloads of one message type, decode as
// without unknown fields (see payload.Infer for the rules and errors).
func Infer(samples [][]byte, opt InferOptions) (string, error) {
	return payload.Infer(samples, opt)
}

// RankRequest asks which message types of a schema a payload fits
// (RankTypes).
type RankRequest struct {
	Files Sources `json:"files"`
	// Input is the payload as hex or base64 text.
	Input string `json:"input"`
	// Encoding says how Input is written; "auto" (the default) detects it.
	Encoding Encoding `json:"encoding,omitempty"`
	// Count is how many types to return: 5 when 0, at most MaxFitResults.
	Count  int         `json:"count,omitempty"`
	Limits *CallLimits `json:"limits,omitempty"`
}

// RankResult is the answer to RankTypes.
type RankResult struct {
	// Fits are the best types, best first.
	Fits []Fit `json:"fits"`
}

// RankTypes ranks the message types of req.Files by how well req.Input
// parses as each.
func (w *Workspace) RankTypes(ctx context.Context, req RankRequest) (*RankResult, error) {
	return payloadCall(w, ctx, req.Files, req.Limits, func(s *Schema) (*RankResult, error) {
		b, _, err := parseText(req.Input, req.Encoding)
		if err != nil {
			return nil, err
		}
		fits, err := s.RankTypes(b, req.Count)
		if err != nil {
			return nil, err
		}
		return &RankResult{Fits: nonNil(fits)}, nil
	})
}

// InferRequest asks for a schema inferred from payloads (Infer).
type InferRequest struct {
	// Inputs are the payloads, each as hex or base64 text.
	Inputs []string `json:"inputs"`
	// Encoding says how the inputs are written; "auto" (the default)
	// detects it for each.
	Encoding Encoding `json:"encoding,omitempty"`
	// Name is the top-level message's name; "Inferred" when empty.
	Name string `json:"name,omitempty"`
	// Package is the file's package; none when empty.
	Package string      `json:"package,omitempty"`
	Limits  *CallLimits `json:"limits,omitempty"`
}

// InferResult is the answer to Infer.
type InferResult struct {
	// File is a name for the inferred file: the message name in snake
	// case, ".proto".
	File string `json:"file"`
	// Content is the .proto text.
	Content string `json:"content"`
}

// Infer infers a .proto file from req.Inputs. A malformed payload is an
// *Error of KindPayload whose Record is the input's index and Offset the
// byte at fault.
func (w *Workspace) Infer(ctx context.Context, req InferRequest) (*InferResult, error) {
	ctx, _, cancel := w.limits(ctx, req.Limits)
	defer cancel()
	if len(req.Inputs) > MaxInferSamples {
		return nil, &Error{Kind: KindLimit, Limit: "MaxInferSamples", Offset: -1, Message: "too many payloads: the limit is " + itoa(MaxInferSamples) + " (MaxInferSamples)"}
	}
	samples := make([][]byte, len(req.Inputs))
	total := 0
	for i, in := range req.Inputs {
		b, _, err := parseText(in, req.Encoding)
		if err != nil {
			e := asError(err)
			e.Record = i
			return nil, e
		}
		if total += len(b); total > MaxInputBytes {
			return nil, &Error{Kind: KindLimit, Limit: "MaxInputBytes", Offset: -1, Record: i,
				Message: "the payloads exceed " + itoa(MaxInputBytes) + " bytes together (MaxInputBytes)"}
		}
		samples[i] = b
	}
	name := req.Name
	if name == "" {
		name = "Inferred"
	}
	text, err := Infer(samples, InferOptions{Name: name, Package: req.Package})
	if err != nil {
		return nil, err
	}
	if err := callStop(ctx, 0); err != nil {
		return nil, err
	}
	return &InferResult{File: snake(name) + ".proto", Content: text}, nil
}

// StreamRequest asks for the messages of a length-delimited stream
// (Stream): each preceded by its length as a varint.
type StreamRequest struct {
	Files Sources `json:"files"`
	// Type is a message's full name, "pkg.Message"; empty: the messages
	// are listed, not decoded.
	Type string `json:"type,omitempty"`
	// Input is the stream as hex or base64 text.
	Input string `json:"input"`
	// Encoding says how Input is written; "auto" (the default) detects it.
	Encoding Encoding `json:"encoding,omitempty"`
	// Out is the form of each message's value: "json" (the default) or
	// "text".
	Out    Format      `json:"out,omitempty"`
	Limits *CallLimits `json:"limits,omitempty"`
}

// StreamMessage is one message of a stream.
type StreamMessage struct {
	// PrefixOffset is where its length prefix starts, in bytes from the
	// start of the stream.
	PrefixOffset int `json:"prefixOffset"`
	// Offset is where the message's bytes start (after the prefix).
	Offset int `json:"offset"`
	// Size is the message's length in bytes.
	Size int `json:"size"`
	// Value is the message decoded (with a Type), in the Out form.
	Value string `json:"value,omitempty"`
	// Error says why it did not decode (Offset from the stream's start).
	Error *Error `json:"error,omitempty"`
}

// StreamResult is the answer to Stream.
type StreamResult struct {
	Bytes
	// Messages are the stream's messages in order, at most
	// MaxStreamMessages.
	Messages []StreamMessage `json:"messages"`
	// Unlisted counts the messages past MaxStreamMessages, checked but
	// not listed.
	Unlisted int `json:"unlisted,omitempty"`
	// Error, when set, is the bad length prefix that ended the stream
	// (KindPayload, Offset the prefix's byte, Record its index).
	Error *Error `json:"error,omitempty"`
}

// MaxStreamMessages is the most messages Stream lists.
const MaxStreamMessages = 10_000

// Stream lists the messages of req.Input, a length-delimited stream, each
// with its byte offsets, decoded as req.Type when it is set. A bad length
// prefix ends the list, with StreamResult.Error saying where; a message
// that does not decode has its own Error and the list goes on.
func (w *Workspace) Stream(ctx context.Context, req StreamRequest) (*StreamResult, error) {
	run := func(s *Schema) (*StreamResult, error) {
		b, _, err := parseText(req.Input, req.Encoding)
		if err != nil {
			return nil, err
		}
		out := &StreamResult{Bytes: *bytesOf(b), Messages: []StreamMessage{}}
		prefix, i := 0, 0
		serr := EachDelimited(b, func(r Record) error {
			defer func() { i, prefix = i+1, r.Offset+len(r.Bytes) }()
			if i >= MaxStreamMessages {
				out.Unlisted++
				return nil
			}
			m := StreamMessage{PrefixOffset: prefix, Offset: r.Offset, Size: len(r.Bytes)}
			if s != nil {
				d, err := s.Decode(req.Type, r.Bytes, DecodeOptions{In: Binary, Out: req.Out})
				switch {
				case err != nil:
					e := asError(err)
					if e.Kind == KindType {
						return e
					}
					if e.Offset >= 0 {
						e.Offset += r.Offset
					}
					e.Record = i
					m.Error = e
				case len(d.Messages) > 0:
					m.Value = d.Messages[0]
				}
			}
			out.Messages = append(out.Messages, m)
			return nil
		})
		if serr != nil {
			e := asError(serr)
			if e.Kind == KindType {
				return nil, e
			}
			out.Error = e
		}
		return out, nil
	}
	if req.Type == "" {
		ctx, _, cancel := w.limits(ctx, req.Limits)
		defer cancel()
		r, err := run(nil)
		if err == nil {
			err = callStop(ctx, 0)
		}
		if err != nil {
			return nil, err
		}
		return r, nil
	}
	return payloadCall(w, ctx, req.Files, req.Limits, run)
}

// snake turns a CamelCase name into snake_case ("GoogleMessage1" ->
// "google_message1").
func snake(s string) string {
	var out []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			if i > 0 && (s[i-1] < 'A' || s[i-1] > 'Z') && s[i-1] != '_' {
				out = append(out, '_')
			}
			c += 'a' - 'A'
		}
		out = append(out, c)
	}
	return string(out)
}

func itoa(n int) string { return strconv.Itoa(n) }
