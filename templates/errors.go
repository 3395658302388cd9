package templates

import (
	"errors"
	"fmt"
)

// ErrNotFound is returned when a template does not exist.
var ErrNotFound = errors.New("templates: template not found")

// ErrInvalid matches every *ParamError with errors.Is. The HTTP layer maps
// it to 400 invalid_parameter, naming ParamError.Param.
var ErrInvalid = errors.New("templates: invalid parameter")

// ParamError reports an invalid or missing parameter. Param is the
// parameter's name as a client sends it, with dots for nesting
// ("name", "post_type", "field_config.custom_fields.price.mode"); Message
// is safe to show to a client. Err, when set, is the error the
// parameter was found invalid by (a LibraryOptions.Check hook's own
// error, with its own codes); errors.Is and errors.As see it.
type ParamError struct {
	Param   string
	Message string
	Err     error
}

// Error implements error.
func (e *ParamError) Error() string { return "templates: " + e.Message }

// Unwrap returns Err.
func (e *ParamError) Unwrap() error { return e.Err }

// Is reports whether target is ErrInvalid.
func (e *ParamError) Is(target error) bool { return target == ErrInvalid }

func paramErr(param, format string, args ...any) *ParamError {
	return &ParamError{Param: param, Message: fmt.Sprintf(format, args...)}
}
