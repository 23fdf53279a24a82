"""The end-to-end harness itself: a real server, a real kernel, a real Chromium, both ways.

If these fail, every widget e2e test would fail for reasons that have nothing to do with the
widget; they keep that distinction visible.
"""

import threading

import pytest
from harness import CellError, JupyterServer, run_all, run_code, wait_for_widget
from playwright.sync_api import expect

KERNEL_STARTS = 20  # a listing lands inside a kernel's start in most of them

CLICKER = '''
import anywidget
import traitlets


class Clicker(anywidget.AnyWidget):
    _esm = """
    export default {
      render({ model, el }) {
        const button = document.createElement("button");
        button.dataset.test = "x";
        const show = () => { button.textContent = `clicked ${model.get("clicks")} times`; };
        button.addEventListener("click", () => {
          model.set("clicks", model.get("clicks") + 1);
          model.save_changes();
        });
        model.on("change:clicks", show);
        show();
        el.appendChild(button);
      },
    };
    """
    clicks = traitlets.Int(0).tag(sync=True)


clicker = Clicker()
clicker
'''


def test_cells_run_in_order_and_their_output_comes_back(lab_notebook):
    page = lab_notebook("smoke_print.ipynb", ["x = 6"])
    run_all(page)
    assert run_code(page, "print(x * 7)") == "42"
    with pytest.raises(CellError, match="ZeroDivisionError"):
        run_code(page, "1 / 0")


def test_an_inline_widget_talks_to_the_kernel_both_ways(lab_notebook):
    page = lab_notebook("smoke_widget.ipynb", [CLICKER])
    run_all(page)
    button = wait_for_widget(page, 'button[data-test="x"]')

    button.click()
    expect(button).to_have_text("clicked 1 times")
    assert run_code(page, "print(clicker.clicks)") == "1"

    run_code(page, "clicker.clicks = 5")
    expect(button).to_have_text("clicked 5 times")


def test_notebook7_hosts_the_same_flow(nb7_notebook):
    page = nb7_notebook("smoke_nb7.ipynb", ["x = 6"])
    run_all(page)
    assert run_code(page, "print(x * 7)") == "42"


def test_kernels_are_shut_down_even_while_one_is_starting(jupyter_lab: JupyterServer):
    """A test ends by shutting its kernels down, often while the page it opened still starts
    one. jupyter_server answers a list asked for during a start with a 500; the clean-up must
    wait that out, and leave no kernel behind."""
    errors: list[BaseException] = []

    def start_kernel() -> None:
        try:
            jupyter_lab.api("POST", "/api/kernels")
        except BaseException as error:  # (reported by the test, not lost in the thread)
            errors.append(error)

    for _ in range(KERNEL_STARTS):
        starting = threading.Thread(target=start_kernel)
        starting.start()
        while starting.is_alive():
            jupyter_lab.shutdown_kernels()
        starting.join()
    jupyter_lab.shutdown_kernels()
    assert errors == []
    assert jupyter_lab.api("GET", "/api/kernels") == []
