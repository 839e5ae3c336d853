package croupier

import (
	"errors"
	"fmt"
	"strings"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// FieldViolation is one field at fault, as the server names it in a
// google.rpc.BadRequest detail of an INVALID_ARGUMENT error.
type FieldViolation struct {
	Field       string
	Description string
}

// Error is a call that the server (or the channel) answered with a gRPC
// error. Code is the status code, Violations the BadRequest field
// violations the server attaches to INVALID_ARGUMENT. It keeps the status,
// so status.Code(err) and status.FromError(err) read it as usual.
type Error struct {
	RPC        string
	Code       codes.Code
	Message    string
	Violations []FieldViolation
	status     *status.Status
}

func (e *Error) Error() string {
	var text strings.Builder
	fmt.Fprintf(&text, "%s failed: %s: %s", e.RPC, e.Code, e.Message)
	for _, v := range e.Violations {
		fmt.Fprintf(&text, "\n  %s: %s", v.Field, v.Description)
	}
	return text.String()
}

// GRPCStatus is the status the server answered (grpc's status package reads
// an error's status through this method).
func (e *Error) GRPCStatus() *status.Status { return e.status }

// callError turns the error of a call of rpc into an *Error; a nil error
// stays nil.
func callError(rpc string, err error) error {
	if err == nil {
		return nil
	}
	st := status.Convert(err)
	return &Error{
		RPC:        rpc,
		Code:       st.Code(),
		Message:    st.Message(),
		Violations: fieldViolations(st),
		status:     st,
	}
}

// fieldViolations are the violations of every BadRequest detail of st.
// status.Details decodes the details whose types are linked in; importing
// errdetails links BadRequest in.
func fieldViolations(st *status.Status) []FieldViolation {
	var out []FieldViolation
	for _, detail := range st.Details() {
		if bad, ok := detail.(*errdetails.BadRequest); ok {
			for _, v := range bad.GetFieldViolations() {
				out = append(out, FieldViolation{Field: v.GetField(), Description: v.GetDescription()})
			}
		}
	}
	return out
}

// AsError is the *Error inside err, when there is one.
func AsError(err error) (*Error, bool) {
	var target *Error
	ok := errors.As(err, &target)
	return target, ok
}
