// zkgpu::Error -> the Python exceptions of zkgpu/_errors.py, chosen by ErrorCode, with the
// library's message. The classes live in Python so they can also derive from ValueError,
// MemoryError and RuntimeError; the translator looks them up once, at import.
#include <new>
#include <string>

#include "common.hpp"
#include "zkgpu/status.hpp"

namespace zkgpu::python {

namespace {
struct ErrorClasses {
  nb::object invalid, oom, cuda, unavailable, internal;
};
ErrorClasses* classes = nullptr;  // set once at import; the module keeps the classes alive

void raise(const nb::object& cls, const char* msg) { PyErr_SetString(cls.ptr(), msg); }
}  // namespace

void bind_errors(nb::module_& m) {
  nb::module_ errs = nb::module_::import_("zkgpu._errors");
  classes = new ErrorClasses{errs.attr("InvalidArgument"), errs.attr("OutOfMemory"), errs.attr("CudaError"),
                             errs.attr("Unavailable"), errs.attr("Internal")};
  m.attr("_error_classes") = nb::capsule(classes, [](void* p) noexcept { delete static_cast<ErrorClasses*>(p); });
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const Error& e) {
      switch (e.code()) {
        case ErrorCode::InvalidArgument: return raise(classes->invalid, e.what());
        case ErrorCode::OutOfMemory: return raise(classes->oom, e.what());
        case ErrorCode::CudaError: return raise(classes->cuda, e.what());
        case ErrorCode::Unavailable: return raise(classes->unavailable, e.what());
      }
      raise(classes->internal, e.what());
    } catch (const std::bad_alloc&) {
      raise(classes->oom, "zkgpu: a host allocation failed (std::bad_alloc)");
    } catch (const nb::cast_error&) {  // a Python value of the wrong type read inside a binding
      raise(classes->invalid, "zkgpu: an argument has the wrong type or is out of range for the library");
    } catch (const nb::python_error&) {
      throw;  // a Python exception raised inside a callback: nanobind restores it
    } catch (const nb::builtin_exception&) {
      throw;
    } catch (const std::exception& e) {
      raise(classes->internal, (std::string("zkgpu internal error (please report): ") + e.what()).c_str());
    }
  });
}

}  // namespace zkgpu::python
