"""The end-to-end harness itself: a real server, a real kernel, a real Chromium, both ways.

If these fail, every widget e2e test would fail for reasons that have nothing to do with the
widget; they keep that distinction visible.
"""

import pytest
from harness import CellError, run_all, run_code, wait_for_widget
from playwright.sync_api import expect

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
