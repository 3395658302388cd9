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
// is safe to show to a client.
type ParamError struct {
	Param   string
	Message string
}

// Error implements error.
func (e *ParamError) Error() string { return "templates: " + e.Message }

// Is reports whether target is ErrInvalid.
func (e *ParamError) Is(target error) bool { return target == ErrInvalid }

func paramErr(param, format string, args ...any) *ParamError {
	return &ParamError{Param: param, Message: fmt.Sprintf(format, args...)}
}
