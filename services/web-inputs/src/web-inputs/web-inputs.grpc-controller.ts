import { Controller, Inject } from '@nestjs/common';
import { common, webInputs } from '@platform/proto';
import { WebInputsService } from './web-inputs.service';

@Controller()
@webInputs.WebInputsServiceControllerMethods()
export class WebInputsGrpcController implements webInputs.WebInputsServiceController {
  constructor(@Inject(WebInputsService) private readonly webInputs: WebInputsService) {}

  createWebInput(request: webInputs.CreateWebInputRequest): Promise<webInputs.WebInput> {
    return this.webInputs.create(request);
  }

  getWebInput(request: common.IdRequest): Promise<webInputs.WebInput> {
    return this.webInputs.get(request.id);
  }

  listWebInputs(request: common.PageRequest): Promise<webInputs.WebInputList> {
    return this.webInputs.list(request);
  }

  deleteWebInput(request: common.IdRequest): Promise<common.Empty> {
    return this.webInputs.delete(request.id).then(() => ({}));
  }

  launchWebInput(request: common.IdRequest): Promise<common.Empty> {
    return this.webInputs.launch(request.id).then(() => ({}));
  }

  shutdownWebInput(request: common.IdRequest): Promise<common.Empty> {
    return this.webInputs.shutdown(request.id).then(() => ({}));
  }

  reloadWebInput(request: common.IdRequest): Promise<common.Empty> {
    return this.webInputs.reload(request.id).then(() => ({}));
  }

  updateWebInputUrl(request: webInputs.UpdateWebInputUrlRequest): Promise<webInputs.WebInput> {
    return this.webInputs.updateUrl(request);
  }
}
