# SPDX-License-Identifier: MIT
#
# Included by CrowdSpec.jl: the `Model` (the C handle, freed by a finalizer or
# `close`), `_check` (a status to a `CrowdSpecError`), its parameters (`setparam!`,
# `getparam`) and what the loaded library offers (`param_info`, `param_names`,
# `method_names`, `method_input`, `version`).

# ---------------------------------------------------------------------------- the model

"""
    Model(; parameters...)

A crowdspec model: a method, its parameters and the results of the last fit. It owns a
C handle, freed by a finalizer (or earlier by `close(model)`). Keyword arguments set
parameters by name, as [`setparam!`](@ref) does, e.g.
`Model(method = "opt-ds", prior = "uniform", max_iter = 200, tol = 1e-8)`; without
`method`, the library's default, `"auto"`.

A model must be used by one task at a time; distinct models share nothing, so fits on
different models may run on different threads.
"""
mutable struct Model
    ptr::Ptr{Cvoid}
    function Model(; parameters...)
        ptr = ccall(_fn(:cs_create), Ptr{Cvoid}, ())
        ptr == C_NULL && throw(OutOfMemoryError())
        model = finalizer(_destroy!, new(ptr))
        for (name, value) in parameters
            setparam!(model, String(name), value)
        end
        return model
    end
end

function _destroy!(model::Model)
    if model.ptr != C_NULL
        ccall(_fn(:cs_destroy), Cvoid, (Ptr{Cvoid},), model.ptr)
        model.ptr = C_NULL
    end
    return nothing
end

"""
    close(model::Model)

Free the model's C handle now instead of at garbage collection. Later calls on the
model raise a [`CrowdSpecError`](@ref) (`CS_ERR_NULL_HANDLE`).
"""
Base.close(model::Model) = _destroy!(model)

# Passing a Model where ccall expects Ptr{Cvoid} passes its handle and keeps the model
# alive (not finalized) for the duration of the call.
Base.unsafe_convert(::Type{Ptr{Cvoid}}, model::Model) = model.ptr

function Base.show(io::IO, model::Model)
    if model.ptr == C_NULL
        print(io, "CrowdSpec.Model(closed)")
    else
        id = Ref{Int64}(0)
        ccall(_fn(:cs_get_int), Int32, (Ptr{Cvoid}, Int32, Ref{Int64}), model, CS_PARAM_METHOD, id)
        print(io, "CrowdSpec.Model(method = \"", _method_name(Int32(id[])), "\")")
    end
end

"""
    last_message(model::Model) -> String

The library's message about the last failure on `model`, or the explanation of the last
fit's notes (empty when there is none).
"""
last_message(model::Model) =
    unsafe_string(ccall(_fn(:cs_last_error), Cstring, (Ptr{Cvoid},), model))

function _check(model::Model, status::Integer)
    status == CS_OK && return nothing
    throw(CrowdSpecError(Int32(status), _status_name(status), last_message(model)))
end

# ---------------------------------------------------------------------------- parameters

function _param_id(name::AbstractString)
    id = Ref{Int32}(0)
    status = ccall(_fn(:cs_param_from_name), Int32, (Cstring, Ref{Int32}), name, id)
    status == CS_OK || throw(_error(status, "unknown parameter \"$name\""))
    return id[]
end

"""
    setparam!(model::Model, name, value) -> model

Set a parameter by name (`"tol"`, `"max_iter"`, `"prior"`, ...; see
[`param_names`](@ref)). Integers go to the C setter for integers, other real numbers to
the one for doubles, strings and symbols to the textual setter (value names such as
`"estimated"`, or numbers). The library checks the type and range and keeps the old
value on failure, raising a [`CrowdSpecError`](@ref).
"""
function setparam!(model::Model, name::AbstractString, value::Integer)
    id = _param_id(name)
    v = Int64(value)  # InexactError beyond Int64
    _check(model, ccall(_fn(:cs_set_int), Int32, (Ptr{Cvoid}, Int32, Int64), model, id, v))
    return model
end

function setparam!(model::Model, name::AbstractString, value::Real)
    id = _param_id(name)
    v = Float64(value)
    _check(model, ccall(_fn(:cs_set_double), Int32, (Ptr{Cvoid}, Int32, Cdouble), model, id, v))
    return model
end

function setparam!(model::Model, name::AbstractString, value::Union{AbstractString,Symbol})
    text = String(value)
    _check(model, ccall(_fn(:cs_set_param_string), Int32, (Ptr{Cvoid}, Cstring, Cstring),
                        model, name, text))
    return model
end

setparam!(model::Model, name::Symbol, value) = setparam!(model, String(name), value)

"""
    getparam(model::Model, name) -> Int64 or Float64

The current value of a parameter: an `Int64` for integer parameters, a `Float64`
otherwise.
"""
function getparam(model::Model, name::AbstractString)
    id = _param_id(name)
    if param_info(name).is_integer
        v = Ref{Int64}(0)
        _check(model, ccall(_fn(:cs_get_int), Int32, (Ptr{Cvoid}, Int32, Ref{Int64}), model, id, v))
        return v[]
    else
        x = Ref{Cdouble}(0.0)
        _check(model, ccall(_fn(:cs_get_double), Int32, (Ptr{Cvoid}, Int32, Ref{Cdouble}),
                            model, id, x))
        return x[]
    end
end

getparam(model::Model, name::Symbol) = getparam(model, String(name))

"""
    param_info(name) -> NamedTuple

Range and default of a parameter: `(name, id, lower, upper, default, is_integer)`.
"""
function param_info(name::AbstractString)
    id = _param_id(name)
    lower, upper, default = Ref{Cdouble}(0.0), Ref{Cdouble}(0.0), Ref{Cdouble}(0.0)
    is_integer = Ref{Int32}(0)
    status = ccall(_fn(:cs_param_info), Int32,
                   (Int32, Ref{Cdouble}, Ref{Cdouble}, Ref{Cdouble}, Ref{Int32}),
                   id, lower, upper, default, is_integer)
    status == CS_OK || throw(_error(status, "no parameter has id $id"))
    return (name = String(name), id = id, lower = lower[], upper = upper[],
            default = default[], is_integer = is_integer[] != 0)
end

"""
    param_names() -> Vector{String}

The names of every parameter of the loaded library.
"""
function param_names()
    count = ccall(_fn(:cs_param_count), Int32, ())
    names = String[]
    for index in 0:count-1
        id = ccall(_fn(:cs_param_at), Int32, (Int32,), index)
        p = ccall(_fn(:cs_param_name), Ptr{UInt8}, (Int32,), id)
        p == C_NULL || push!(names, unsafe_string(p))
    end
    return names
end

function _method_name(id::Int32)
    p = ccall(_fn(:cs_method_name), Ptr{UInt8}, (Int32,), id)
    return p == C_NULL ? "unknown ($id)" : unsafe_string(p)
end

"""
    method_names() -> Vector{String}

The names of every method of the loaded library (`"mv"`, `"ds"`, `"opt-ds"`, ..., `"auto"`,
`"lloyd"`, `"commu-lloyd"`, ...).
"""
function method_names()
    count = ccall(_fn(:cs_method_count), Int32, ())
    return [_method_name(ccall(_fn(:cs_method_at), Int32, (Int32,), index)) for index in 0:count-1]
end

"""
    method_input(name) -> Symbol

The kind of input a method takes: `:crowd` ([`fit!`](@ref)), `:points`
([`fit_points!`](@ref)), `:graph` ([`fit_graph!`](@ref)) or `:comparisons`
([`rank_comparisons`](@ref)).
"""
function method_input(name::AbstractString)
    id = Ref{Int32}(0)
    status = ccall(_fn(:cs_method_from_name), Int32, (Cstring, Ref{Int32}), name, id)
    status == CS_OK || throw(_error(status, "unknown method \"$name\""))
    kind = ccall(_fn(:cs_method_input), Int32, (Int32,), id[])
    return kind == CS_INPUT_POINTS ? :points : kind == CS_INPUT_GRAPH ? :graph :
           kind == CS_INPUT_COMPARISONS ? :comparisons : :crowd
end

"""
    version() -> VersionNumber

The version of the loaded C library.
"""
version() = VersionNumber(unsafe_string(ccall(_fn(:cs_version_string), Cstring, ())))
